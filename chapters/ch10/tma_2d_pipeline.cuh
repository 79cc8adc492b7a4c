// tma_2d_pipeline: how deep the TMA ring of a Hopper GEMM must be. All variants are the single-role wgmma +
// TMA kernel of gemm_wgmma_tma.cuh (2D tensor-map loads with 128-byte swizzle into an mbarrier ring, two
// wgmma warpgroups, 128 x 256 x 64 tiles) on ch10 gemm_tiled's problem, C[M][N] = A[M][K] B[N][K]^T in BF16
// with FP32 accumulation, 4096^3 by default (`--axis m/n/k`); they differ only in the number of ring slots:
//   baseline_tma_2d_pipeline.cu       2 slots (double buffering): one K-tile in flight while one is computed
//   optimized_tma_2d_pipeline_3stage.cu  3 slots: two K-tiles in flight
//   optimized_tma_2d_pipeline.cu      4 slots: three K-tiles in flight (the gemm_tiled wgmma_tma step)
// Same kernel code, same wgmma order: outputs identical bit for bit, the BF16 default tolerance applies.
#pragma once
#include "gemm_tiled.cuh"
#include "gemm_wgmma_tma.cuh"

template <int kStages>
class TmaPipelineVariant : public GemmTiledBase {
 public:
  void run(aisp::Context& ctx) override {
    gemm_.launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ctx.buffer("c").as<__nv_bfloat16>(),
                 ctx.param("m"), ctx.param("n"), ctx.param("k"));
  }
  // One kernel, one summation order in every variant: bit-identical outputs.
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
  std::string technique() const override {
    return "wgmma + TMA 2D loads, " + std::to_string(kStages) + "-slot mbarrier ring (" +
           std::to_string(kStages - 1) + " K-tiles of 48 KiB in flight)";
  }

 protected:
  void prepare(aisp::Context& ctx) override { gemm_.prepare(ctx.param("m"), ctx.param("n"), ctx.param("k")); }

 private:
  wgmma_tma::WgmmaTmaGemm<kStages> gemm_;
};
