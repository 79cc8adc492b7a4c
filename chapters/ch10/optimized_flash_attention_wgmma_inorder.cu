// ch10 flash_attention, optimized (wgmma, in order): the first Hopper step - TMA, wgmma and warp
// specialization with FlashAttention-3's scheduling switched off (flash_attention_wgmma.cuh).
//
// Technique: the producer/consumer structure of optimized_flash_attention_wgmma.cu (TMA K/V ring, producer
// warpgroup, two wgmma consumer warpgroups), but each consumer runs S = Q K^T, softmax, P V strictly in
// order, waiting for each GEMM before the next step, and releases a K/V stage only after its P V.
// Why it is faster than the mma.sync kernel: the tensor work moves to wgmma (64 x 128 x 16 per instruction
// per warpgroup, operands straight from shared memory); what is left on the table is the softmax time,
// during which this warpgroup's tensor work stops - and the other consumer, waiting on the same tiles,
// tends to be in its softmax at the same moment.
// Expected on Hopper: FlashAttention-3's ablation puts the structure without its scheduling ~10-20% below
// the full schedule.
// Measured (H100 SXM, harness, cold, 2026-11-25): 927.3 us, 593 TFLOP/s, 4.91x [4.82, 5.00] over the
// unfused baseline; the full schedule is 12.5% faster (811.3 us).
#include "flash_attention_wgmma.cuh"

// <causal, intra-warpgroup overlap, ping-pong, split K/V release>
using OptimizedFlashAttentionWgmmaInorder = fa_wgmma::FlashAttentionWgmma<false, false, false, false>;
AISP_BENCHMARK(OptimizedFlashAttentionWgmmaInorder)
