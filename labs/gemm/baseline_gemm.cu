// labs/gemm, baseline: warp-level tensor cores (mma.sync m16n8k16 + ldmatrix, 4-stage cp.async ring).
//
// Technique: ch10's gemm_mma_sync.cuh, 128 x 128 x 32 CTA tiles, 8 warps of 64 x 32, padded shared rows.
// Why it is the slow end: mma.sync passes every operand through registers (ldmatrix) and is capped near
// 2/3 of Hopper's tensor peak; at 128 x 128 tiles each A fragment feeds only 4 MMAs.
// Expected on Hopper: ~270 TFLOP/s at 8192^3 (ch10 measured 272.6 at 4096^3). Measured: see README.
#include "../../chapters/ch10/gemm_mma_sync.cuh"
#include "gemm.cuh"

namespace {

using Gemm = mma_gemm::MmaGemm</*stages=*/4, /*async=*/true>;

class BaselineLabGemm : public LabGemmBase {
 public:
  void run(aisp::Context& ctx) override {
    Gemm::launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ctx.buffer("c").data, ctx.param("m"),
                 ctx.param("n"), ctx.param("k"));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "mma.sync m16n8k16 + ldmatrix, 4-stage cp.async ring (ch10)"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    require_multiple("labs/gemm mma_sync", m, n, k, mma_gemm::kBM, mma_gemm::kBN, mma_gemm::kBK);
    Gemm::prepare();
  }
};

}  // namespace

AISP_BENCHMARK(BaselineLabGemm)
