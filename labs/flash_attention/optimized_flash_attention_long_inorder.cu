// labs/flash_attention flash_attention_long, ablation: the same wgmma + TMA kernel with every FA3 scheduling
// switch off (S, softmax, P V strictly in order within each warpgroup; no ping-pong; joint K/V release).
// Why it is here: separates what Hopper's instructions buy (this variant vs the mma.sync baseline) from what
// the schedule buys (the _wgmma variant vs this one). Expected: ~590 TFLOP/s (ch10: 593 at 4096 tokens).
// Not yet measured.
#include "../../chapters/ch10/flash_attention_wgmma.cuh"
#include "long_attention.cuh"

using OptimizedFlashAttentionLongInorder = LongAttention<fa_wgmma::FlashAttentionWgmma<false, false, false, false>>;
AISP_BENCHMARK(OptimizedFlashAttentionLongInorder)
