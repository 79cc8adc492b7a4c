// labs/moe, step 1: sorted dispatch: route once, permute once, then still one GEMM launch per expert.
//
// Technique: ch15's routing kernel does the whole dispatch bookkeeping in one launch (top-2 and gates,
// the expert histogram, its prefix sum, and every (token, j)'s slot in its expert's segment: a counting
// sort by expert); one permutation kernel then copies all 8192 rows into expert order at once. The expert
// GEMMs stay a loop of 16 launches (each over its segment of the sorted buffer, bounds read on the device),
// then ch15's combine reads each token's two outputs by slot.
// Why it is faster: 16 scans of every assignment, 16 gathers and 16 scatters become one routing pass and
// one copy; the expert outputs stay where the GEMM wrote them (the combine indexes them by slot).
// What it leaves: 16 GEMM launches of ~32 busy CTAs each on 132 SMs: partial waves, ramps and tails.
// Expected on Hopper: ~0.7 ms (the GEMM loop) vs ~0.8 ms: ~1.1x.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 798.4 us, 1.179x [1.154, 1.229], FASTER.
#include "moe.cuh"

namespace {

using namespace moe_lab;

class OptimizedMoeSortedDispatch : public MoeLabBase {
 public:
  std::string technique() const override {
    return "sorted dispatch: one routing kernel (counting sort by expert) + one permutation, per-expert GEMM launches";
  }
  void run(aisp::Context& ctx) override {
    route(ctx);
    permute(ctx, grouped_);
    for (int e = 0; e < kExperts; ++e) {
      segment_gemm<<<kWorstRowTiles * kColTiles, kThreads, kSmemBytes, ctx.stream()>>>(
          grouped_, identity_, weights(ctx) + static_cast<int64_t>(e) * kFfn * kHidden, rt_.expert_begin + e, out_);
      AISP_LAUNCH_CHECK();
    }
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

AISP_BENCHMARK(OptimizedMoeSortedDispatch)
