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
#include "gemm_tiled_ws.cuh"

namespace {

using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/2, ws_gemm::StoreC, /*early_release=*/false,
                             /*multicast=*/false>;

class OptimizedGemmTiledClusterNoMulticast : public WsGemmTiledVariant<Gemm> {
 public:
  std::string technique() const override {
    return "control: persistent warp-specialized wgmma in 2-CTA clusters, no multicast (each CTA loads its B)";
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmTiledClusterNoMulticast)
