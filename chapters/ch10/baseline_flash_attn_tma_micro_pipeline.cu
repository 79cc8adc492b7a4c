// ch10 flash_attn_tma_micro_pipeline, baseline: FlashAttention-2 style loads and MMAs (cp.async + ldmatrix +
// mma.sync), the fused kernel of ch10:flash_attention's `flash_attention` variant.
//
// Why it is slow on Hopper: every warp spends issue slots on address math, cp.async, ldmatrix and 16 x 8 x 16
// mma instructions (per 16 x 64 tile: 128 mma + 72 ldmatrix), next to the softmax's ~600 instructions; the
// kernel is issue-bound near 300 TFLOP/s, and mma.sync cannot reach Hopper's full tensor rate anyway.
// Expected on Hopper: ~1.8 ms (303 TFLOP/s measured as ch10:flash_attention's variant, H100 SXM, 2026-11-25).
// Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 1.829 ms, 301 TFLOP/s.
#include "flash_attn_tma_micro_pipeline.cuh"

using BaselineFlashAttnTmaMicroPipeline = fa_mma::FlashAttentionMmaSync<false>;
AISP_BENCHMARK(BaselineFlashAttnTmaMicroPipeline)
