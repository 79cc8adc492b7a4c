// labs/decode, baseline: the decode step one op at a time, with a naive paged attention.
//
// Technique: 11 launches in the order a framework runs an unfused layer: RMSNorm kernel, cuBLAS QKV GEMM
// (fp32 out), a split kernel (q, new K/V to bf16), naive paged attention (one CTA per (sequence, head):
// vLLM's paged_attention_v1 schedule, one 256-byte K row per warp in flight behind its block-table read),
// cuBLAS Wo GEMM, residual kernel, RMSNorm kernel, cuBLAS gate/up GEMM (merged rows), SiLU-and-mul kernel,
// cuBLAS down GEMM, residual kernel. The GEMMs are reasonable (cuBLAS at M = 8 reads each weight once);
// what is slow is the attention: 128 CTAs of 4 warps, each warp with one dependent 256-byte load at a time,
// cannot keep HBM busy (Little's law: ~3 TB/s x ~0.6 us needs ~2 MB in flight; this has ~64 KB), and the
// 268 MB cache is two thirds of the step's bytes.
// Expected on Hopper: attention latency bound at a few hundred GB/s (~1 ms), the rest ~50-60 us: ~1.1 ms
// per step, ~7k tokens/s, ~10% of the bandwidth roofline. Measured (H100 80GB HBM3, 2026-11-28): 1.032 ms,
// 7750 tokens/s, 11.6% of the roofline; later (docs/measurements/closing_calls_20261128.md) H100 1.028 ms,
// 7779 tokens/s; H200 985.4 us, 8119 tokens/s (latency bound: the H200's bandwidth barely helps).
#include "unfused_step.cuh"

namespace {

using namespace decode_lab;

class BaselineDecodeStep : public UnfusedStepBase {
 public:
  std::string technique() const override {
    return "one kernel per op: RMSNorm / cuBLAS GEMMs (fp32 out) / elementwise, naive paged attention (v1)";
  }
  void run(aisp::Context& ctx) override {
    before_attention(ctx);
    naive_paged_attention<<<kBatch * kHeads, kNaiveWarps * 32, 0, ctx.stream()>>>(
        act_.q, ctx.buffer("kv_new").as<const __nv_bfloat16>(), ctx.buffer("k_pool").as<const __nv_bfloat16>(),
        ctx.buffer("v_pool").as<const __nv_bfloat16>(), ctx.buffer("block_table").as<const int32_t>(), ctx.param("context"),
        ch18::q_scale_log2(), act_.o);
    AISP_LAUNCH_CHECK();
    after_attention(ctx);
  }
};

}  // namespace

AISP_BENCHMARK(BaselineDecodeStep)
