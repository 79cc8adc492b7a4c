// labs/flash_attention flash_attention_long, optimized: ch10's FA3-schedule kernel (TMA + mbarrier K/V ring,
// producer warpgroup + 2 wgmma consumer warpgroups, intra-warpgroup overlap, ping-pong, split K/V release).
// Why it is faster: wgmma from shared memory is Hopper's full-rate MMA path, and the schedule hides the
// softmax's exp2 work under the other warpgroup's GEMMs. Long rows (128 key tiles per query block) spread
// the per-block prologue and epilogue thinner than at 4096 tokens.
// Expected on Hopper: ~650-700 TFLOP/s (ch10: 678 at 4096 tokens; FA3: 648 at 16k, 1830 MHz). Not yet measured.
#include "../../chapters/ch10/flash_attention_wgmma.cuh"
#include "long_attention.cuh"

using OptimizedFlashAttentionLongWgmma = LongAttention<fa_wgmma::FlashAttentionWgmma<false, true, true, true>>;
AISP_BENCHMARK(OptimizedFlashAttentionLongWgmma)
