// labs/flash_attention flash_attention_long_causal, baseline: ch10's FlashAttention-2-style mma.sync kernel
// with the causal mask (key tiles above the diagonal skipped), 16k tokens. Not yet measured.
#include "../../chapters/ch10/flash_attention_mma_sync.cuh"
#include "long_attention.cuh"

using BaselineFlashAttentionLongCausal = LongAttention<fa_mma::FlashAttentionMmaSync<true>>;
AISP_BENCHMARK(BaselineFlashAttentionLongCausal)
