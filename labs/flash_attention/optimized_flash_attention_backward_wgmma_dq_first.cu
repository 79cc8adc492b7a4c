// labs/flash_attention flash_attention_backward, optimized: the wgmma backward of
// optimized_flash_attention_backward_wgmma.cu with one schedule change (Schedule::kDqFirst in
// flash_attention_backward_wgmma.cuh): after the named barrier each warpgroup issues dQ = dS K before
// dK += dS^T Q, waits for dQ only, and sends its 16 red.global.add.v2.f32 per thread while dK runs.
// Why it should be faster: in order, both warpgroups (kept in step by the per-tile named barrier) wait for
// every wgmma of the tile and then do their dQ atomics together, so the tensor cores idle during the atomics
// once per tile; here dK's 4 wgmma k-steps (m64n128k16) cover them. Costs: dK no longer runs while the
// warpgroup waits at the barrier.
// Expected on Hopper: a few percent over the in-order variant, if the atomics' issue, not L2, is what idles
// the tensor cores.
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations --accept-regressions`, cold mode, clocks as found, 15:45 UTC run): 752.9 us = 456 TFLOP/s, 2.475x
// [2.430, 2.520] over the baseline's 1.863 ms, FASTER, 19/19 checks; the in-order variant 797.0 us in the same
// run: -5.5%, the atomics did cost tensor-core time. ptxas: 250 registers, no spills. Host reference: the same
// max errors as the FA2 kernel to 4 digits.
#include "flash_attention_backward_wgmma.cuh"

using OptimizedFlashAttentionBackwardWgmmaDqFirst = fa_bwd_wgmma::FlashAttentionBackwardWgmma<fa_bwd_wgmma::Schedule::kDqFirst>;
AISP_BENCHMARK(OptimizedFlashAttentionBackwardWgmmaDqFirst)
