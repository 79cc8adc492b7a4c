// flashattention3_pipeline: FlashAttention-3's scheduling on its own, as a pair. Both variants are the Hopper
// flash-attention kernel of flash_attention_wgmma.cuh (TMA K/V ring with mbarriers, a producer warpgroup,
// two wgmma consumer warpgroups, setmaxnreg) on flash_attention.cuh's workload, buffers and tolerance
// (bf16 [4, 16, 4096, 128], fp32 accumulation, online softmax):
//   baseline_flashattention3_pipeline.cu    every schedule switch off: S = Q K^T, softmax, O += P V strictly
//                                           in order in each consumer, a K/V stage released after its P V
//   optimized_flashattention3_pipeline.cu   FA3's schedule: intra-warpgroup overlap of S_{j+1} with P_j V_j,
//                                           ping-pong between the two consumers, K and V released separately
// and the same two for the causal mask (flashattention3_pipeline_causal). The structure (TMA, wgmma, warp
// specialization) is identical, so the ratio is what the schedule alone buys: keeping the tensor cores busy
// while the softmax's exp2 (16 per clock per SM) runs. Outputs differ only in fp32 summation order and bf16
// rounding points, within the flash_attention tolerance (derived in flash_attention.cuh).
#pragma once
#include "flash_attention_wgmma.cuh"

// <causal, intra-warpgroup overlap, ping-pong, split K/V release>
template <bool kCausal>
using Fa3InOrder = fa_wgmma::FlashAttentionWgmma<kCausal, false, false, false>;
template <bool kCausal>
using Fa3Scheduled = fa_wgmma::FlashAttentionWgmma<kCausal, true, true, true>;
