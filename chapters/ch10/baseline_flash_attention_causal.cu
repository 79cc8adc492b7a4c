// ch10 flash_attention_causal, baseline: unfused causal attention, three kernels through HBM
// (attention_unfused.cuh).
//
// Technique: as baseline_flash_attention.cu; the causal mask is applied in the softmax kernel (keys after
// the query get probability 0), after cuBLAS has computed the full S - the eager math path's behaviour.
// Why it is slow: all of the non-causal baseline's HBM traffic (the full 4 GiB S, 2 GiB P) and GEMM work
// for half of the useful FLOPs.
// Expected on Hopper (H100 SXM, default size): ~4.5-5 ms like the non-causal baseline, so ~60 TFLOP/s
// counted on the causal (halved) FLOPs. Measured (H100 SXM, harness, cold, 2026-11-25): 4.544 ms, 60.5
// TFLOP/s.
#include "attention_unfused.cuh"

using BaselineFlashAttentionCausal = attention_unfused::UnfusedAttention<true>;
AISP_BENCHMARK(BaselineFlashAttentionCausal)
