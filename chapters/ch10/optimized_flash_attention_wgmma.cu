// ch10 flash_attention, optimized (wgmma): FlashAttention-3's schedule on Hopper's own instructions
// (flash_attention_wgmma.cuh, all switches on).
//
// Technique: a producer warpgroup (24 registers after setmaxnreg) issues TMA loads of K and V tiles (128
// keys x 128 d, 128-byte swizzle) into a 2-stage mbarrier ring; two consumer warpgroups (240 registers,
// 64 query rows each) compute S = Q K^T and O += P V with wgmma m64n128k16 (operands from shared memory,
// P from registers) and the online softmax in between, scheduled as FlashAttention-3 does:
//   intra-warpgroup overlap: S_{j+1} = Q K_{j+1}^T is issued together with P_j V_j, and its softmax runs
//     while P_j V_j is still on the tensor cores;
//   ping-pong: the two consumers take turns issuing their GEMMs (named barriers), so one warpgroup's
//     softmax runs under the other's GEMMs instead of both hitting the exp units at once;
//   split release: K_j's stage is returned to the producer as soon as S_j is complete, V_j's after P_j V_j,
//     so the overlapped schedule still has a whole tile of load lookahead.
// Why it is faster than the mma.sync kernel: wgmma is the only path to Hopper's full tensor rate (mma.sync
// tops out near 2/3 of it, and its ldmatrix + mma instruction stream leaves few issue slots for the
// softmax); the schedule keeps the tensor cores fed while exp2 (16 per clock per SM, 1/256 of the MMA rate)
// runs.
// Expected on Hopper: FlashAttention-3 reports 638 TFLOP/s at this shape (H100 SXM, 1830 MHz fixed).
// Measured (H100 SXM, harness, cold, 2026-11-25): 811.3 us, 678 TFLOP/s, 5.61x [5.51, 5.71] over the
// unfused baseline (4.552 ms); the same kernel with every switch off (optimized_flash_attention_wgmma_inorder)
// 927.3 us, 593 TFLOP/s; the mma.sync kernel 1.814 ms, 303 TFLOP/s. Clocks were not pinned (max 1980 MHz).
#include "flash_attention_wgmma.cuh"

// <causal, intra-warpgroup overlap, ping-pong, split K/V release>
using OptimizedFlashAttentionWgmma = fa_wgmma::FlashAttentionWgmma<false, true, true, true>;
AISP_BENCHMARK(OptimizedFlashAttentionWgmma)
