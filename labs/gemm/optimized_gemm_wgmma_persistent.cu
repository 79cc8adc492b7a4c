// labs/gemm, optimized: Hopper's GEMM structure (ch10 gemm_ws_kernel.cuh, persistent, no cluster).
//
// Technique: TMA loads (128-byte swizzle) into a 4-stage mbarrier ring fed by a producer warpgroup
// (setmaxnreg 40); two consumer warpgroups (setmaxnreg 232) issue wgmma.m64n256k16 straight from shared
// memory into 128 FP32 accumulators each; one CTA per SM walks 128 x 256 tiles in grouped order.
// Why it is faster: wgmma is the only path to the full tensor rate; no operand passes through registers,
// loads never stall an MMA warpgroup, and the next tile's loads overlap this tile's epilogue.
// Expected on Hopper: ~670 TFLOP/s at 8192^3 (ch10's estimate 673), ~2.5x the mma.sync kernel.
// Measured: see README (H100 run of this commit).
#include "../../chapters/ch10/gemm_ws_kernel.cuh"
#include "gemm.cuh"

namespace {

using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/1, ws_gemm::StoreC>;

class OptimizedLabGemmWgmmaPersistent : public LabGemmBase {
 public:
  void run(aisp::Context& ctx) override {
    gemm_.launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data,
                 ws_gemm::StoreC{ctx.buffer("c").as<__nv_bfloat16>(), static_cast<int>(ctx.param("n"))}, ctx.param("m"),
                 ctx.param("n"), ctx.param("k"));
  }
  std::string technique() const override { return "persistent warp-specialized TMA + wgmma (ch10)"; }

 protected:
  void prepare(aisp::Context& ctx) override { gemm_.prepare(ctx.device(), ctx.param("m"), ctx.param("n"), ctx.param("k")); }

 private:
  Gemm gemm_;
};

}  // namespace

AISP_BENCHMARK(OptimizedLabGemmWgmmaPersistent)
