// ch10 flash_attention_causal, optimized: the fused FlashAttention-2-style kernel with a causal mask
// (flash_attention_mma_sync.cuh, kCausal = true).
//
// Technique: as optimized_flash_attention.cu, plus: key tiles wholly after a query block's last row are
// never loaded or multiplied (half the work), only the tiles crossing the diagonal are masked element-wise,
// and query blocks are launched longest-first so short blocks fill the tail of the grid.
// Why it is faster: everything the non-causal fused kernel saves, plus the baseline's full S and masked
// GEMM work skipped: the unfused path cannot skip the masked half, the fused kernel does not compute it.
// Expected on Hopper: ~200-300 TFLOP/s (causal FLOPs), ~0.9-1.4 ms, ~3.5-5x over the unfused baseline.
// Measured (H100 SXM, harness, cold, 2026-11-25): 1.049 ms, 262 TFLOP/s, 4.33x [4.25, 4.41].
#include "flash_attention_mma_sync.cuh"

using OptimizedFlashAttentionCausal = fa_mma::FlashAttentionMmaSync<true>;
AISP_BENCHMARK(OptimizedFlashAttentionCausal)
