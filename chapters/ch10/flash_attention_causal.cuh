// flash_attention_causal: flash_attention (see flash_attention.cuh) with the causal mask of a decoder:
// query i attends to keys 0..i only. Same shapes, inputs and tolerance; FLOPs halved (only the unmasked
// half counts), so TFLOP/s compare with the non-causal pair and with FlashAttention's published figures.
//   baseline_flash_attention_causal.cu:  the unfused three kernels, computing the full S and masking in softmax
//   optimized_flash_attention_causal.cu: the fused kernel, skipping key tiles above the diagonal entirely
#pragma once
#include "flash_attention.cuh"

using FlashAttentionCausalPair = FlashAttentionPair<true>;
