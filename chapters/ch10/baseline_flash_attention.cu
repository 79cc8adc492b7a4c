// ch10 flash_attention, baseline: unfused attention, three kernels through HBM (attention_unfused.cuh).
//
// Technique: S = Q K^T / sqrt(d) by cuBLAS (bf16 tensor cores, fp32 accumulate) written to HBM in fp32,
// a softmax kernel reading S and writing P in bf16, O = P V by cuBLAS. The fp32-accumulated reference
// every fused variant is checked against.
// Why it is slow: the GEMMs are fast (~0.8 ms of tensor work at cuBLAS's ~700 TFLOP/s for the 550 GFLOP),
// but S and P are seq x seq per head: 4 GiB of fp32 S written and read, 2 GiB of bf16 P written and read,
// ~12 GiB of HBM traffic, ~4 ms at ~3 TB/s, for an output of 64 MiB.
// Expected on Hopper (H100 SXM, batch 4 x 16 heads, seq 4096, d 128): ~4.5-5 ms, ~110-120 TFLOP/s
// effective. Measured (H100 SXM, harness, cold, 2026-11-25): 4.552 ms, 121 TFLOP/s effective.
#include "attention_unfused.cuh"

using BaselineFlashAttention = attention_unfused::UnfusedAttention<false>;
AISP_BENCHMARK(BaselineFlashAttention)
