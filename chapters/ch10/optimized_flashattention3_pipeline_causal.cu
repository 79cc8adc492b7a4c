// ch10 flashattention3_pipeline_causal, optimized: the causal kernel with FA3's schedule (overlap,
// ping-pong, split K/V release), as ch10:flash_attention_causal's `wgmma` variant.
//
// Why it is faster: as in the non-causal pair, the softmax runs under tensor-core work instead of between it.
// Expected on Hopper: ~1.1x over in-order; the scheduled kernel measured 478.0 us (575 TFLOP/s) as
// ch10:flash_attention_causal's wgmma variant (H100 SXM, 2026-11-25). Measured (H100 SXM, harness cold mode,
// 2026-11-25 10:44 UTC, all checks passed):
// 476.2 us, 577 TFLOP/s, 1.114x [1.094, 1.134] over in-order.
#include "flashattention3_pipeline_causal.cuh"

using OptimizedFlashattention3PipelineCausal = Fa3Scheduled<true>;
AISP_BENCHMARK(OptimizedFlashattention3PipelineCausal)
