// labs/flash_attention flash_attention_backward, optimized: the wgmma backward of
// optimized_flash_attention_backward_wgmma.cu with one schedule change (Schedule::kDeferred in
// flash_attention_backward_wgmma.cuh): tile i's dQ accumulator is sent (16 red.global.add.v2.f32 per thread)
// after tile i + 1's S^T and dP^T wgmmas are issued instead of before, as FA3 overlaps its dQ write with the
// next tile's GEMMs. Every wgmma group still retires within its own tile (ptxas serializes wgmmas whose
// groups stay in flight across the loop's back edge).
// Why it should be faster: in order, both warpgroups (kept in step by the per-tile named barrier) send their
// atomics with no wgmma in flight, so the tensor cores idle meanwhile; here S^T and dP^T of the next tile
// (16 of the tile's 40 wgmma k-steps) run under them. Costs dQ's 32 accumulator registers during S^T, dP^T.
// Expected on Hopper: a few percent over the in-order variant, if the atomics' issue, not L2, idles the
// tensor cores.
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations --accept-regressions`, cold mode, clocks as found, 15:45 UTC run): 821.4 us = 418 TFLOP/s, 2.269x
// [2.228, 2.310] over the baseline's 1.863 ms, FASTER, 19/19 checks - but 3% SLOWER than the in-order variant
// (797.0 us in the same run), kept as the measured negative. Not profiled; candidate causes: the 16 atomics sit
// between the S^T/dP^T issue and the wait for S^T, so they delay the P^T recompute when S^T finishes first,
// and dq_send's 32 registers stay live across the whole tile. ptxas: 250 registers, no spills.
#include "flash_attention_backward_wgmma.cuh"

using OptimizedFlashAttentionBackwardWgmmaDqDeferred =
    fa_bwd_wgmma::FlashAttentionBackwardWgmma<fa_bwd_wgmma::Schedule::kDeferred>;
AISP_BENCHMARK(OptimizedFlashAttentionBackwardWgmmaDqDeferred)
