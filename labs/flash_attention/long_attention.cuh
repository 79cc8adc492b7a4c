// labs/flash_attention: ch10's fused attention forward kernels at FlashAttention-3's long-sequence
// setting: 1 sequence x 16 heads x 16384 tokens x head dim 128, bf16 (B·S = 16k, H·D = 2048; FA3 reports
// 648 TFLOP/s non-causal and 616 causal at this point on an H100 SXM at 1830 MHz). The kernels, buffers and
// tolerances are ch10's (flash_attention.cuh's FlashAttentionPair); this header only moves the workload:
// every ch10 class reads batch, heads and seq from ctx.param(), so overriding workload() is enough.
//   baseline_flash_attention_long*.cu            FlashAttention-2-style mma.sync kernel (ch10 fa_mma)
//   optimized_flash_attention_long*_wgmma.cu     FA3's schedule on wgmma + TMA (ch10 fa_wgmma, all switches)
//   optimized_flash_attention_long_inorder.cu    the wgmma kernel with every scheduling switch off
// The unfused baseline of ch10 is left out here: at 16k its score matrix alone is 16 GiB of fp32.
#pragma once
#include "../../chapters/ch10/flash_attention.cuh"

inline int64_t long_attention_seq() { return aisp::axis("seq", 16384); }

inline aisp::Workload long_attention_workload(bool causal) {
  const int64_t batch = 1, heads = 16, seq = long_attention_seq(), dim = kAttnHeadDim;
  aisp::Workload w;
  w.params = {{"batch", batch}, {"heads", heads}, {"seq", seq}, {"head_dim", dim}, {"causal", causal ? 1 : 0}};
  w.precision = aisp::DType::bf16;
  const double tokens = static_cast<double>(batch) * seq;
  w.bytes = 4.0 * tokens * heads * dim * 2;  // Q, K, V read once, O written once
  w.flops = 4.0 * batch * heads * static_cast<double>(seq) * seq * dim * (causal ? 0.5 : 1.0);
  w.items = tokens;
  w.item_unit = "tokens";
  return w;
}

// A ch10 attention benchmark at this lab's workload.
template <class Ch10Kernel>
class LongAttention : public Ch10Kernel {
 public:
  aisp::Workload workload() const override { return long_attention_workload(Ch10Kernel::causal); }
};
