// setmaxnreg: register reallocation between warpgroups, on the kernel where it matters most - the Hopper
// flash-attention forward of flash_attention_wgmma.cuh with FlashAttention-3's full schedule, on
// flash_attention.cuh's workload, buffers and tolerance (bf16 [4, 16, 4096, 128], fp32 accumulation):
//   baseline_setmaxnreg.cu    kSetmaxnreg off: all 384 threads keep the launch allotment of 168 registers
//                             (65536 per SM / 384), the producer's idle ones included
//   optimized_setmaxnreg.cu   the producer warpgroup drops to 24 (setmaxnreg.dec), the two consumer
//                             warpgroups rise to 240 (setmaxnreg.inc): 128 x 24 + 256 x 240 = 64512 <= 65536
// A consumer thread holds the O accumulator (64 fp32), the S accumulator (64 fp32), the P fragments and, with
// the overlap schedule, the next tile's S: well over 168 registers. Same instructions and order otherwise;
// outputs agree within the flash_attention tolerance (derived in flash_attention.cuh).
#pragma once
#include "flash_attention_wgmma.cuh"

// <causal, intra-warpgroup overlap, ping-pong, split K/V release, setmaxnreg>
template <bool kSetmaxnreg>
using Fa3Registers = fa_wgmma::FlashAttentionWgmma<false, true, true, true, kSetmaxnreg>;
