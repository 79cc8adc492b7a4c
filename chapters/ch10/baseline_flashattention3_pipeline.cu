// ch10 flashattention3_pipeline, baseline: the Hopper flash-attention structure without FA3's schedule.
//
// Technique: flash_attention_wgmma.cuh with every schedule switch off (the kernel ch10:flash_attention runs as
// its `wgmma_inorder` variant): TMA + mbarrier K/V ring, producer warpgroup, two wgmma consumer warpgroups,
// each running S = Q K^T -> softmax -> O += P V in order and waiting for each GEMM before the next step.
// Why it leaves speed on the table: while a consumer computes its softmax, its tensor-core work stops, and
// the other consumer, fed by the same tiles, tends to be in its softmax at the same moment.
// Expected on Hopper: ~590 TFLOP/s (927 us) at the default shape, as measured for the wgmma_inorder variant
// of ch10:flash_attention (H100 SXM, 2026-11-25). Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all
// checks passed): 923.0 us,
// 596 TFLOP/s.
#include "flashattention3_pipeline.cuh"

using BaselineFlashattention3Pipeline = Fa3InOrder<false>;
AISP_BENCHMARK(BaselineFlashattention3Pipeline)
