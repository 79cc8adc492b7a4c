// ch10 gemm_tiled, optimized: 2-CTA clusters without multicast (a control for the multicast step).
//
// Technique: gemm_ws_kernel.cuh with kPersistent = true, kCluster = 2, kMulticast = false: launched in
// 2-CTA clusters (grid from cudaOccupancyMaxActiveClusters) with the same tile order as
// optimized_gemm_tiled_cluster_multicast.cu, vertically adjacent tiles per cluster, but every CTA loads its
// whole 256 x 64 B tile itself and releases ring slots only locally: nothing crosses between the CTAs.
// Why it is here: it separates what the multicast buys (a third less L2 -> SM traffic) from what merely
// launching clusters costs or changes (placement on SM pairs, the co-residency limit, the tile order).
// Expected on Hopper: the persistent kernel's speed (~197 us at 4096^3); the multicast variant should beat it.
// Measured (H100 SXM, harness cold mode, 2026-11-25, all 19 checks passed): 206.1 us, 3.8% slower than the
// 1-CTA persistent kernel: clustering alone costs; the multicast variant (200.8 us) wins back 2.6% of it.
#include "gemm_tiled.cuh"
#include "gemm_ws_kernel.cuh"

namespace {

using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/2, ws_gemm::StoreC, /*early_release=*/false,
                             /*multicast=*/false>;

class OptimizedGemmTiledClusterNoMulticast : public GemmTiledBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    gemm_.launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data,
                 ws_gemm::StoreC{ctx.buffer("c").as<__nv_bfloat16>(), static_cast<int>(n)}, m, n, k);
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
  std::string technique() const override {
    return "control: persistent warp-specialized wgmma in 2-CTA clusters, no multicast (each CTA loads its B)";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    gemm_.prepare(ctx.device(), ctx.param("m"), ctx.param("n"), ctx.param("k"));
  }

 private:
  Gemm gemm_;
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmTiledClusterNoMulticast)
