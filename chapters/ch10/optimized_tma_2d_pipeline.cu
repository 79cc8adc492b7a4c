// ch10 tma_2d_pipeline, optimized: the wgmma + TMA GEMM with a 4-slot ring (three K-tiles in flight).
//
// Technique: gemm_wgmma_tma.cuh with kStages = 4 (192 KiB of ring, the kernel ch10:gemm_tiled runs as its
// `wgmma_tma` variant): TMA loads run three K-tiles (~1.7 us of tensor work) ahead of the wgmmas.
// Why it is faster: by Little's law an SM must keep latency x rate bytes in flight; at ~86 KB/us of
// operand demand per SM (48 KiB per 0.56 us) and ~1 us of load latency that is ~2 K-tiles, which 4 slots
// cover with margin and 2 slots do not.
// Expected on Hopper: ~680 TFLOP/s (202.5 us at 4096^3, measured as ch10:gemm_tiled's wgmma_tma variant on
// H100 SXM, 2026-11-25), ~1.3-1.8x over 2 slots. Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all
// checks passed):
// 200.7 us, 684.8 TFLOP/s, 1.354x [1.330, 1.379] over 2 slots.
#include "tma_2d_pipeline.cuh"

using OptimizedTma2dPipeline = TmaPipelineVariant<4>;
AISP_BENCHMARK(OptimizedTma2dPipeline)
