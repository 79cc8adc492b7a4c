// labs/moe, step 3 (the optimized layer): the grouped GEMM gathers its own A rows.
//
// Technique: step 2 without the permutation kernel: the GEMM's cp.async loads fetch A row `slot` from
// x[token_of_slot[slot]] directly (vLLM/SGLang fused_moe's sorted_token_ids), so no permuted copy of x is
// ever written or read. Routing, tile table and combine as before.
// Why it is faster: the 32 MB permuted copy (16 MB written, 16 MB read back) and one launch disappear; the
// gathered loads are whole 64-byte row segments, as coalesced as the copy's.
// Expected on Hopper: ~0.14 ms, ~5x over the baseline (ch15 moe_inference runs this same kernel).
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 258.4 us, 3.643x [3.571, 3.735], FASTER: the best step of the lab, short of the ~5x expected.
#include "moe.cuh"

namespace {

using namespace moe_lab;

class OptimizedMoe : public MoeLabBase {
 public:
  std::string technique() const override { return "grouped GEMM gathering A rows through slot -> token (no permuted copy)"; }
  void run(aisp::Context& ctx) override {
    route(ctx);
    launch_grouped(ctx, x_in(ctx), rt_.token_of_slot);
    combine(ctx, rt_, out_);
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedMoe)
