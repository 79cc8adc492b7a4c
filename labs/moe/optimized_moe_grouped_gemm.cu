// labs/moe, step 2: one grouped GEMM launch over every expert's tiles.
//
// Technique: step 1's routing and permutation; the routing kernel also writes a tile table (expert, row
// tile within the expert) for all experts, so one launch of kMaxRowTiles x 8 CTAs covers every expert's
// 128 x 128 tiles (entries past the table's device-side count exit at once): DeepGEMM's "contiguous"
// grouped layout with M grouped, N and K fixed per expert.
// Why it is faster: ~64 row tiles x 8 column tiles = ~520 CTAs in one launch, ~2 full waves at 2 CTAs per
// SM, instead of 16 launches of ~32 busy CTAs each; one ramp and one tail.
// Expected on Hopper: ~0.16 ms (mma.sync tiles at ~230 TFLOP/s): ~4x over step 1.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 278.0 us, 3.386x [3.318, 3.466] over the baseline, FASTER.
#include "moe.cuh"

namespace {

using namespace moe_lab;

class OptimizedMoeGroupedGemm : public MoeLabBase {
 public:
  std::string technique() const override { return "sorted dispatch + one grouped GEMM launch over a device-built tile table"; }
  void run(aisp::Context& ctx) override {
    route(ctx);
    permute(ctx, grouped_);
    launch_grouped(ctx, grouped_, identity_);
    combine(ctx, rt_, out_);
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    grouped_ = static_cast<__nv_bfloat16*>(ctx.scratch("grouped_rows", size_t{kSlots} * kHidden * 2));
  }

 private:
  __nv_bfloat16* grouped_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedMoeGroupedGemm)
