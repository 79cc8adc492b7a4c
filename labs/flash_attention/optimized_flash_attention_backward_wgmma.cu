// labs/flash_attention flash_attention_backward, optimized: FlashAttention-3's backward structure on Hopper's
// warpgroup MMA (kernel and its schedule: flash_attention_backward_wgmma.cuh).
// Technique: the FA2 variant's algorithm (a block owns 128 keys, dK and dV accumulate in registers over the
// query tiles of 64, P^T recomputed from L, dQ added by fp32 atomics) with all five GEMMs on wgmma: two
// warpgroups of 64 keys each, S^T = K Q^T and dP^T = V dO^T with both operands in 128-byte-swizzled shared
// memory, dV += P^T dO and dK += dS^T Q with P^T, dS^T straight from the accumulators as register A operands,
// dQ = dS K from dS^T written once to shared memory; Q, dO by TMA (L, D by bulk copies) in a 3-stage
// mbarrier ring.
// Why it should be faster: the FA2 kernel feeds mma.sync from ldmatrix (~0.6 ldmatrix.x4 per mma: shared
// memory bandwidth, not the tensor cores, bounds it) at 255 registers with spills. wgmma reads its B operand
// (and A, for S^T, dP^T, dQ) from shared memory once per warpgroup instead of once per warp, runs
// asynchronously (the P^T and dS^T arithmetic overlaps the next GEMM), and is the only way to Hopper's full
// dense rate (mma.sync reaches ~60% of it).
// Expected on Hopper: FA3 reports ~450-500 TFLOP/s for its hdim-128 backward on the H100 with producer and
// dQ-writer warps and overlapped scheduling; this simpler in-order schedule (no producer warpgroup, the dQ
// atomics from the MMA warps) ~350-400 TFLOP/s: ~0.9 ms against the FA2 kernel's 1.32 ms and the baseline's
// 1.87 ms (~2x).
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations --accept-regressions`, cold mode, clocks as found, 15:45 UTC run): 797.0 us = 431 TFLOP/s against the
// baseline's 1.863 ms (184 TFLOP/s): 2.338x [2.296, 2.381], FASTER, 19/19 checks, peak memory 194 MiB; the FA2
// mma.sync variant ran 1.326 ms (259 TFLOP/s) in the same run, so wgmma alone is 1.66x. Above the expected
// ~350-400 TFLOP/s. (A first run at 15:37, before S^T, dP^T and dQ's first k-step declared the accumulator
// write-only, gave 785.1 us, 2.374x [2.332, 2.418].) ptxas: 250 registers, no spills, no wgmma serialization
// warning. Host reference (flash_attention_backward_host_check.cu, same device call): the same max errors as the
// FA2 kernel to 4 digits at seq 256 and 512 (both above that check's criterion there, as its header explains).
// The dQ write is this variant's weak spot: see the _dq_first, _dq_deferred and _tma_reduce variants.
#include "flash_attention_backward_wgmma.cuh"

using OptimizedFlashAttentionBackwardWgmma = fa_bwd_wgmma::FlashAttentionBackwardWgmma<fa_bwd_wgmma::Schedule::kInOrder>;
AISP_BENCHMARK(OptimizedFlashAttentionBackwardWgmma)
