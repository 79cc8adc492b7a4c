// ch10 tma_2d_pipeline, baseline: the wgmma + TMA GEMM with a 2-slot ring (double buffering).
//
// Technique: gemm_wgmma_tma.cuh with kStages = 2: while the two warpgroups run K-tile kt's wgmmas, the loads
// of K-tile kt+1 (48 KiB by two TMA instructions) are the only ones in flight; slot kt-1 is refilled only
// after wgmma kt was issued and kt-1 retired.
// Why it is slow: one K-tile of 128 x 256 x 64 is ~0.56 us of tensor work per SM at the wgmma peak, while a
// 48 KiB TMA load takes its L2/HBM latency (~1 us under load) plus its transfer time; with one tile of
// lookahead each K-tile waits for the remainder, and with one CTA per SM (128 FP32 accumulators per thread)
// no other CTA fills the gap. Double buffering, enough for a 2016 CUDA-core kernel, is too shallow for
// Hopper's tensor rate.
// Expected on Hopper: ~1.3-1.8x slower than 4 slots (~300-450 us at 4096^3). Measured (H100 SXM, harness cold mode,
// 2026-11-25 10:44 UTC, all checks passed):
// 271.8 us, 505.7 TFLOP/s (272.4 us in a probe run).
#include "tma_2d_pipeline.cuh"

using BaselineTma2dPipeline = TmaPipelineVariant<2>;
AISP_BENCHMARK(BaselineTma2dPipeline)
