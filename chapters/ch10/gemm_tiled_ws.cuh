// The gemm_tiled variants built on the warp-specialized kernel (gemm_ws_kernel.cuh) share one run(): bind
// A, B and C to the chosen WsGemm instantiation and launch it. This header holds that once, so each variant
// file says only which switches it turns on and why (its header comment) and names its technique:
//   class OptimizedGemmTiledPersistent : public WsGemmTiledVariant<ws_gemm::WsGemm<true, 1, ws_gemm::StoreC>> {
//     std::string technique() const override { return "..."; }
//   };
#pragma once
#include "gemm_tiled.cuh"
#include "gemm_ws_kernel.cuh"

template <class Gemm>
class WsGemmTiledVariant : public GemmTiledBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    gemm_.launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data,
                 ws_gemm::StoreC{ctx.buffer("c").as<__nv_bfloat16>(), static_cast<int>(n)}, m, n, k);
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  // Function attributes and the grid: shapes and the device only (the shape check throws with the rule).
  void prepare(aisp::Context& ctx) override {
    gemm_.prepare(ctx.device(), ctx.param("m"), ctx.param("n"), ctx.param("k"));
  }

 private:
  Gemm gemm_;
};
