// ch10 tma_2d_pipeline, optimized (3 slots): two K-tiles of TMA loads in flight while one is computed.
//
// Technique: gemm_wgmma_tma.cuh with kStages = 3 (144 KiB of ring).
// Why it is faster than 2 slots: the loads of K-tile kt+2 start while kt is computed, so each load has two
// K-tiles of tensor time (~1.1 us) to arrive, about the latency of a 48 KiB TMA load under full load.
// Expected on Hopper: most of the way from 2 to 4 slots. Measured (H100 SXM, harness cold mode, 2026-11-25 10:44
// UTC, all checks passed):
// 209.6 us, 655.7 TFLOP/s, 1.297x [1.273, 1.320] over 2 slots: 87% of the way to 4 slots.
#include "tma_2d_pipeline.cuh"

using OptimizedTma2dPipeline3stage = TmaPipelineVariant<3>;
AISP_BENCHMARK(OptimizedTma2dPipeline3stage)
