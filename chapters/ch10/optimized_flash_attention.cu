// ch10 flash_attention, optimized: one fused kernel, FlashAttention-2 style on mma.sync
// (flash_attention_mma_sync.cuh).
//
// Technique: tile Q into 128-row blocks (8 warps x 16 rows), stream K/V in 64-key tiles through shared
// memory (cp.async, double-buffered, XOR-swizzled for conflict-free ldmatrix), compute S = Q K^T on the
// tensor cores into registers, apply an online softmax (running max and sum, rescale the partial O), feed
// P straight from the accumulator registers into O += P V. S and P never touch memory.
// Why it is faster: HBM traffic falls from ~12 GiB to Q, K, V, O (64 MiB, with K/V re-read from L2 by the
// 32 query blocks of a head), so the kernel is bound by the tensor cores instead of HBM; one launch.
// Expected on Hopper: mma.sync reaches ~2/3 of the wgmma peak; FlashAttention-2 runs ~350-370 TFLOP/s on
// H100 at this shape, so ~250-350 TFLOP/s here (~0.8-1.1 ms), ~4-6x over the unfused baseline.
// Measured: see chapters/ch10/README.md.
#include "flash_attention_mma_sync.cuh"

using OptimizedFlashAttention = fa_mma::FlashAttentionMmaSync<false>;
AISP_BENCHMARK(OptimizedFlashAttention)
