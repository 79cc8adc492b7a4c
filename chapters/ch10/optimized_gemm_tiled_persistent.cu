// ch10 gemm_tiled, optimized: persistent warp-specialized wgmma GEMM with a grouped tile scheduler.
//
// Technique: gemm_ws_kernel.cuh with kPersistent = true, kCluster = 1. The grid is one CTA per SM; CTA b
// takes tiles b, b + grid, b + 2 grid, ... in grouped order (16 tile-rows per group, so the ~132 tiles in
// flight share few A and B panels in L2). The producer's K-tile counter and the ring run on across
// tiles, so it loads tile i+1's first K-tiles while the consumers are still finishing tile i and storing
// its results.
// Why it is faster than optimized_gemm_tiled_warp_specialized.cu: no CTA launch, barrier setup and
// pipeline fill per tile; the epilogue (64 32-bit stores per consumer thread) of one tile overlaps the next
// tile's loads; and the tile order is ours instead of the block scheduler's.
// Expected on Hopper: a few % over the non-persistent kernel (fast.cu: 635 -> 658 TFLOP/s at 8192^3); at 4096^3
// there are 512 tiles for 132 SMs (3.9 waves), so the tail costs ~3% either way. Measured (H100 SXM, harness
// cold mode, 2026-11-25, all 19 checks passed): 198.5 us, 692.4 TFLOP/s = 90.1% of cuBLAS (178.9 us, same run;
// 90.1% and 90.3% in two earlier runs), 76.5% of the 904.7 TFLOP/s `aisp hw` wgmma ceiling; the best hand
// kernel at 4096^3. At 8192^3 (warm-up estimate of a run cut short): 1.634 ms, 673 TFLOP/s vs cuBLAS 1.730 ms.
#include "gemm_tiled_ws.cuh"

namespace {

using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/1, ws_gemm::StoreC>;

class OptimizedGemmTiledPersistent : public WsGemmTiledVariant<Gemm> {
 public:
  std::string technique() const override {
    return "persistent warp-specialized wgmma+TMA, one CTA per SM, grouped tile order";
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmTiledPersistent)
