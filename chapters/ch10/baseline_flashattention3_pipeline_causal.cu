// ch10 flashattention3_pipeline_causal, baseline: the causal Hopper flash-attention kernel in order.
//
// Technique: flash_attention_wgmma.cuh, causal, every schedule switch off (see
// baseline_flashattention3_pipeline.cu). Causal rows see fewer key tiles, so the per-tile softmax, which the
// in-order schedule leaves exposed, is a larger share of each block's work near the diagonal.
// Expected on Hopper: roughly the non-causal in-order speed per unmasked FLOP (~550 TFLOP/s).
// Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 530.5 us,
// 518 TFLOP/s (causal FLOPs).
#include "flashattention3_pipeline_causal.cuh"

using BaselineFlashattention3PipelineCausal = Fa3InOrder<true>;
AISP_BENCHMARK(BaselineFlashattention3PipelineCausal)
