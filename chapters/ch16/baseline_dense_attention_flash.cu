// ch16 dense_attention_flash, baseline: dense causal attention at the serving shape (dense_attention_flash.cuh):
// cuBLAS Q K^T into a full fp32 S in HBM, a row-softmax kernel that masks keys after the query and writes
// bf16 P, cuBLAS P V (ch10's attention_unfused.cuh). A strong dense path: both GEMMs run on the tensor
// cores at cuBLAS speed; its cost is S and P through HBM (3 GiB per call here) and the masked half computed.
// Expected on H100: ~2 ms. Measured (H100 80GB HBM3, 2026-11-28, docs/measurements/ch15_ch16_h100_20261128.md): 4.399 ms.
#include "dense_attention_flash.cuh"

using BaselineDenseAttentionFlash = ServingShape<attention_unfused::UnfusedAttention<true>>;
AISP_BENCHMARK(BaselineDenseAttentionFlash)
