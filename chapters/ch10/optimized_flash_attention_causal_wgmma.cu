// ch10 flash_attention_causal, optimized (wgmma): the FlashAttention-3-style kernel of
// optimized_flash_attention_wgmma.cu with the causal mask (flash_attention_wgmma.cuh, kCausal = true).
//
// Technique: as the non-causal wgmma variant; key tiles after a query block's diagonal are never loaded
// (128-row query blocks and 128-key tiles: the diagonal tile is the last one, the only one masked), and
// query blocks are launched longest-first.
// Why it is faster: the causal half of the work is skipped outright, and the remaining GEMMs run on wgmma.
// Expected on Hopper: FlashAttention-3 reaches ~580 TFLOP/s causal at seq 4096, hdim 128; without its
// overlap/ping-pong scheduling ~400-500 here (causal FLOPs).
// Measured: see chapters/ch10/README.md.
#include "flash_attention_wgmma.cuh"

using OptimizedFlashAttentionCausalWgmma = fa_wgmma::FlashAttentionWgmma<true, true, false, false>;
AISP_BENCHMARK(OptimizedFlashAttentionCausalWgmma)
