// labs/flash_attention flash_attention_backward, optimized: the wgmma backward of
// optimized_flash_attention_backward_wgmma.cu with FlashAttention-3's dQ path (Schedule::kTmaReduce in
// flash_attention_backward_wgmma.cuh): each warpgroup writes its scaled 64 x 64 dQ tile to shared memory
// (fp32, 128-byte swizzled, 16 KiB) and one of its threads adds it to the global dQ with two TMA reduce-adds
// (cp.reduce.async.bulk.tensor.2d ... .add.tile.bulk_group), which complete asynchronously; the staging is
// reused after cp.async.bulk.wait_group.read at the next tile's named barrier.
// Why it should be faster: instead of 16 red.global.add.v2.f32 per thread (4096 per block and tile, each an
// L2 request) with the tensor cores idle meanwhile, 16 conflict-free shared stores per thread and 2 bulk
// requests per warpgroup; the reduction runs in the TMA unit and L2 while the next tile's GEMMs start.
// Costs: 32 KiB of shared memory (the block's 227 KiB, exactly sm_90's limit) and a 128-thread named barrier.
// Expected on Hopper: a few percent to ~10% over the in-order variant if the atomics cost tensor-core time.
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations --accept-regressions`, cold mode, clocks as found, 15:45 UTC run): 681.5 us = 504 TFLOP/s, 2.734x
// [2.685, 2.784] over the baseline's 1.863 ms, FASTER, 19/19 checks, the pair's best; the in-order variant
// 797.0 us in the same run (-14.5%), the FA2 mma.sync one 1.326 ms (1.95x). Above the ~10% expected; the rate
// is FA3's published ~450-500 TFLOP/s for its hdim-128 backward on the H100 (1830 MHz; this H200 ran at up to
// 1980 MHz). ptxas: 252 registers, no spills. Host reference: the same max errors as the FA2 kernel to 4 digits.
#include "flash_attention_backward_wgmma.cuh"

using OptimizedFlashAttentionBackwardWgmmaTmaReduce =
    fa_bwd_wgmma::FlashAttentionBackwardWgmma<fa_bwd_wgmma::Schedule::kTmaReduce>;
AISP_BENCHMARK(OptimizedFlashAttentionBackwardWgmmaTmaReduce)
