// ch16 dense_attention_flash, optimized: FlashAttention-3-style fused causal attention at the serving shape
// (ch10's flash_attention_wgmma.cuh, every scheduling switch on): TMA K/V ring, a producer warpgroup and two
// wgmma consumer warpgroups with ping-pong, online softmax in registers, tiles above the diagonal never
// loaded. Why it is faster: S and P never leave the SM (no 3 GiB round trip) and the masked half of the
// work is skipped. Expected on H100: ~0.25 ms, ~8x over the dense path. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 335.3 us (410 TFLOP/s causal), 13.1x [12.9, 13.4].
#include "../ch10/flash_attention_wgmma.cuh"
#include "dense_attention_flash.cuh"

// <causal, intra-warpgroup overlap, ping-pong, split K/V release>
using OptimizedDenseAttentionFlash = ServingShape<fa_wgmma::FlashAttentionWgmma<true, true, true, true>>;
AISP_BENCHMARK(OptimizedDenseAttentionFlash)
