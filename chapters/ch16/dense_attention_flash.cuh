// dense_attention_flash: causal prefill attention at a serving shape, dense (unfused, the eager math path)
// vs flash (fused). The kernels are ch10's (attention_unfused.cuh, flash_attention_wgmma.cuh,
// flash_attention_mma_sync.cuh); what this pair adds is the shape an inference server sees in prefill:
// many requests of moderate length rather than ch10's training shape (batch 4 x 16 heads x 4096).
//   batch 16 prompts x 32 heads x 1024 tokens x head_dim 128 (16 Ki prompt tokens, hidden 4096: a
//   Llama-3-8B-sized layer without GQA), causal.
// At this shape the dense path's S matrix is 16 x 32 x 1024^2 x 4 B = 2 GiB of fp32 plus 1 GiB of bf16 P per
// layer, against 128 MiB of Q, K, V, O: the round trips through HBM, not the matmuls, are its cost, and the
// masked half of S is computed and thrown away. Flash attention keeps S and P on the SM and skips the
// masked tiles. Expected on H100: dense ~2 ms (as ch10's baseline at the same FLOP count), flash wgmma
// ~0.25 ms (FA3-class ~550 TFLOP/s causal), i.e. ~8x; the mma.sync kernel ~0.55 ms (~4x).
// Tolerance: ch10's causal contract (flash_attention.cuh), unchanged: it depends on the head dim and the
// per-row softmax, not on the batch or head count; seq 1024 has fewer keys per row, which makes each
// rounding of P a larger share of o, bounded by the same 2^-8 max|v| argument.
#pragma once
#include "../ch10/attention_unfused.cuh"

// Declared once for every variant (the workload must match): the serving shape.
inline aisp::Workload dense_attention_flash_workload() {
  aisp::Workload w = flash_attention_workload(true);
  const int64_t batch = 16, heads = 32, seq = 1024, dim = kAttnHeadDim;
  w.params = {{"batch", batch}, {"heads", heads}, {"seq", seq}, {"head_dim", dim}, {"causal", 1}};
  const double tokens = static_cast<double>(batch) * seq;
  w.bytes = 4.0 * tokens * heads * dim * sizeof(__nv_bfloat16);                // Q, K, V read once, O written once
  w.flops = 4.0 * batch * heads * static_cast<double>(seq) * seq * dim * 0.5;  // causal: half of 4 B H S^2 D
  w.items = tokens;
  w.item_unit = "tokens";
  return w;
}

// Any ch10 causal attention class (the pair base FlashAttentionPair<true> holds buffers and tolerance),
// re-declared at the serving shape.
template <class Ch10Attention>
class ServingShape : public Ch10Attention {
 public:
  aisp::Workload workload() const override { return dense_attention_flash_workload(); }
};
