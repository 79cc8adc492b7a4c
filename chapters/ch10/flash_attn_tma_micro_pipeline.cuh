// flash_attn_tma_micro_pipeline: how a K/V tile gets to the tensor cores in fused attention, Ampere way vs
// Hopper way, with the schedule held simple (no FA3 overlap or ping-pong in either). flash_attention.cuh's
// workload, buffers and tolerance (bf16 [4, 16, 4096, 128], fp32 accumulation, online softmax):
//   baseline_flash_attn_tma_micro_pipeline.cu    FlashAttention-2 style: every warp issues cp.async for its
//                                                share of the next K/V tile (double-buffered), ldmatrix into
//                                                registers, mma.sync m16n8k16 (flash_attention_mma_sync.cuh)
//   optimized_flash_attn_tma_micro_pipeline.cu   a producer warpgroup issues one TMA load per K/V tile into an
//                                                mbarrier ring; two consumer warpgroups run wgmma straight
//                                                from shared memory, setmaxnreg 24/240
//                                                (flash_attention_wgmma.cuh, schedule switches off)
// Both compute S, the online softmax and P V in the same order per key tile; they differ in fp32 summation
// order and bf16 rounding points, within the flash_attention tolerance.
#pragma once
#include "flash_attention_mma_sync.cuh"
#include "flash_attention_wgmma.cuh"
