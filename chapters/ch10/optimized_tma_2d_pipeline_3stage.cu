// ch10 tma_2d_pipeline, optimized (3 slots): two K-tiles of TMA loads in flight while one is computed.
//
// Technique: gemm_wgmma_tma.cuh with kStages = 3 (144 KiB of ring).
// Why it is faster than 2 slots: the loads of K-tile kt+2 start while kt is computed, so each load has two
// K-tiles of tensor time (~1.1 us) to arrive, about the latency of a 48 KiB TMA load under full load.
// Expected on Hopper: most of the way from 2 to 4 slots. Measured: see the README.
#include "tma_2d_pipeline.cuh"

using OptimizedTma2dPipeline3stage = TmaPipelineVariant<3>;
AISP_BENCHMARK(OptimizedTma2dPipeline3stage)
