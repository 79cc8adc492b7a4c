// ch16 dense_attention_flash, optimized (portable): the FlashAttention-2-style fused causal kernel of ch10
// (flash_attention_mma_sync.cuh: mma.sync bf16, cp.async double-buffered K/V, online softmax) at the serving
// shape: the same fusion without Hopper's TMA/wgmma, so it also runs on sm_80. Expected on H100: ~0.55 ms,
// ~4x over the dense path. Measured (H100 80GB HBM3, 2026-11-28, docs/measurements/ch15_ch16_h100_20261128.md): 587.0 us, 7.49x
// [7.36, 7.64].
#include "../ch10/flash_attention_mma_sync.cuh"
#include "dense_attention_flash.cuh"

using OptimizedDenseAttentionFlashMmaSync = ServingShape<fa_mma::FlashAttentionMmaSync<true>>;
AISP_BENCHMARK(OptimizedDenseAttentionFlashMmaSync)
