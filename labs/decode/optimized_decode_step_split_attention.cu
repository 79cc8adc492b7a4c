// labs/decode, step 1: the unfused step with split-KV (flash-decoding) paged attention.
//
// Technique: the baseline's 10 other launches unchanged; the attention is ch18's split-KV loop over the
// pages (split_attention.cuh): grid splits x 128 (sequence, head) rows, split count from the SM count and
// occupancy (~2 waves, no split under 256 tokens), each CTA's block-table slice staged in shared memory,
// half-warps with 4 tokens (8 x 16-byte loads per lane) in flight; then one merge kernel that also folds in
// the new token.
// Why it is faster: the 268 MB cache read goes from latency bound on 128 CTAs to every SM streaming with
// deep memory-level parallelism: ch18 expects 80-90% of HBM bandwidth for this loop (~0.1 ms here).
// Expected on Hopper: attention ~0.1 ms, step ~0.16-0.18 ms: ~6x over the baseline. What is left is the
// unfused projections (cuBLAS at M = 8, fp32 round trips, 9 launches): step 2.
// Measured (2026-11-28, all checks passed, docs/measurements/closing_calls_20261128.md): H100 80GB HBM3
// 186.5 us, 5.515x [5.415, 5.616], 42.9k tokens/s (64% of the 67.0k tokens/s roofline); H200 147.9 us,
// 6.661x [6.541, 6.783], 54.1k tokens/s. The best step of the lab: faster than the fused step 2 on both GPUs.
#include "split_attention.cuh"
#include "unfused_step.cuh"

namespace {

using namespace decode_lab;

class OptimizedDecodeStepSplitAttention : public UnfusedStepBase {
 public:
  std::string technique() const override { return "unfused projections + split-KV paged attention (flash-decoding)"; }
  void run(aisp::Context& ctx) override {
    before_attention(ctx);
    attention_.launch(ctx, act_.q, ctx.buffer("kv_new").as<const __nv_bfloat16>(), act_.o);
    after_attention(ctx);
  }

 protected:
  void prepare_attention(aisp::Context& ctx) override { attention_.prepare(ctx); }

 private:
  SplitAttention attention_;
};

}  // namespace

AISP_BENCHMARK(OptimizedDecodeStepSplitAttention)
