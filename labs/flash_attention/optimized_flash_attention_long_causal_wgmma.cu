// labs/flash_attention flash_attention_long_causal, optimized: ch10's FA3-schedule wgmma kernel with the
// causal mask. At 16k tokens the diagonal tile is 1/128 of a long row's work (1/32 at 4096), so the masked
// kernel should come closer to the non-causal rate. Expected: ~600 TFLOP/s (FA3: 616 at 16k, 1830 MHz;
// ch10: 575 at 4096 tokens). Not yet measured.
#include "../../chapters/ch10/flash_attention_wgmma.cuh"
#include "long_attention.cuh"

using OptimizedFlashAttentionLongCausalWgmma = LongAttention<fa_wgmma::FlashAttentionWgmma<true, true, true, true>>;
AISP_BENCHMARK(OptimizedFlashAttentionLongCausalWgmma)
