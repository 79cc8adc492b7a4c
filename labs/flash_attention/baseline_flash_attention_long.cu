// labs/flash_attention flash_attention_long, baseline: ch10's FlashAttention-2-style kernel (mma.sync
// m16n8k16 + ldmatrix, online softmax in registers, S and P never leave the SM), non-causal, 16k tokens.
// Why it is the slow end: mma.sync reaches ~2/3 of Hopper's tensor peak and its ldmatrix + mma instruction
// stream leaves few issue slots for the softmax (ch10: 303 TFLOP/s at 4096 tokens).
// Expected on Hopper: ~300-350 TFLOP/s (FA2 at 16k: ~350-370 per FA3's figure). Not yet measured.
#include "../../chapters/ch10/flash_attention_mma_sync.cuh"
#include "long_attention.cuh"

using BaselineFlashAttentionLong = LongAttention<fa_mma::FlashAttentionMmaSync<false>>;
AISP_BENCHMARK(BaselineFlashAttentionLong)
