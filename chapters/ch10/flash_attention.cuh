// flash_attention: the forward pass of scaled dot-product attention, O = softmax(Q K^T / sqrt(d)) V, for
// bf16 Q, K, V, O of shape [batch, heads, seq, head_dim] with fp32 accumulation - the prefill/training
// attention of a transformer layer. Default: batch 4, 16 heads, seq 4096, head_dim 128 (16k tokens, hidden
// 2048: the setting of FlashAttention-3's published H100 figures, so the numbers compare).
//   baseline_flash_attention.cu:          the unfused ("standard") attention: S = Q K^T to global memory in
//                                         fp32, a row softmax kernel writing P in bf16, O = P V - three kernels
//   optimized_flash_attention.cu:         one fused kernel (FlashAttention-2 style, mma.sync tensor cores):
//                                         S and P never leave the SM; online softmax
//   baseline/optimized_flash_attention_causal.cu: the same with a causal mask (flash_attention_causal.cuh)
//
// Inputs are N(0, 1): scores q.k / sqrt(128) are then ~N(0, 1), a softmax that is neither one-hot nor flat
// (effective number of keys per row ~ seq / e), so a dropped or misplaced key tile visibly changes O.
//
// Tolerance (the pair's contract, identical for every variant of a pair):
//   non-causal: |o - o_base| <= 5e-4 + 1e-2 |o_base|;   causal: |o - o_base| <= 2.5e-2 + 1e-2 |o_base|.
// Why not the bf16 default (1e-3, 1e-5): both sides round P to bf16 before the P V product (the baseline
// the normalized P, the fused kernel the unnormalized exp(s - running max)), at different points, so the
// two outputs carry independent rounding noise sum_j p_j d_j v_j, |d_j| <= 2^-9. Over n keys its sigma is
// ~ 2^-9/sqrt(3) * sqrt(sum p^2) ~ 3e-5 at n = 4096 (sum p^2 ~ e/n); the max over 33.5M outputs is ~6 sigma
// ~ 2.5e-4, hence atol 5e-4 without a mask. With the causal mask query i sees only i + 1 keys: rows 1..~30
// average a handful of v ~ N(0, 1) with weights of order 1, the noise is bounded by 2^-9 max|v| per side,
// 2^-8 max|v| < 2.4e-2 between the two for |v| < 6 (measured 1.56e-2 on the H100), while o itself can
// cancel to ~0 - hence atol 2.5e-2 for the causal pair. The output is rounded to bf16 (half an ulp = 2^-9
// relative) on both sides after different fp32 sums: up to one bf16 ulp (2^-8 = 0.4%) apart, hence rtol
// 1e-2. Typical |o| is ~0.03 for long rows: a tile of 64 keys left out moves an output by ~1e-2 (caught without a mask; with it, caught in
// the short rows, where one key is a large share of the row).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

inline constexpr int64_t kAttnHeadDim = 128;  // the kernels are written for exactly this head dim

inline int64_t flash_attention_seq() { return aisp::axis("seq", 4096); }

// 4 B H S^2 D: two GEMMs of 2 S^2 D each per head; causal skips the masked half (the convention of the
// FlashAttention papers, so TFLOP/s compare with theirs).
inline aisp::Workload flash_attention_workload(bool causal) {
  const int64_t batch = 4, heads = 16, seq = flash_attention_seq(), dim = kAttnHeadDim;
  aisp::Workload w;
  w.params = {{"batch", batch}, {"heads", heads}, {"seq", seq}, {"head_dim", dim}, {"causal", causal ? 1 : 0}};
  w.precision = aisp::DType::bf16;
  const double tokens = static_cast<double>(batch) * seq;
  w.bytes = 4.0 * tokens * heads * dim * sizeof(__nv_bfloat16);  // Q, K, V read once, O written once
  w.flops = 4.0 * batch * heads * static_cast<double>(seq) * seq * dim * (causal ? 0.5 : 1.0);
  w.items = tokens;
  w.item_unit = "tokens";
  return w;
}

// The pair's base: workload, buffers, tolerance. Variants add only their kernels and run().
template <bool kCausal>
class FlashAttentionPair : public aisp::Benchmark {
 public:
  static constexpr bool causal = kCausal;
  aisp::Workload workload() const override { return flash_attention_workload(kCausal); }

  void setup(aisp::Context& ctx) override {
    const aisp::Shape shape{ctx.param("batch"), ctx.param("heads"), ctx.param("seq"), ctx.param("head_dim")};
    if (ctx.param("head_dim") != kAttnHeadDim || ctx.param("seq") % 128 != 0)
      throw std::runtime_error("flash_attention: head_dim must be 128 and seq a multiple of 128");
    for (const char* name : {"q", "k", "v"}) ctx.input(name, aisp::DType::bf16, shape, aisp::Fill::normal(0.0, 1.0));
    ctx.output("o", aisp::DType::bf16, shape);
    setup_variant(ctx);
  }

  aisp::Tolerance tolerance() const override {
    if (kCausal)
      return aisp::Tolerance::loosened(
          1e-2, 2.5e-2,
          "bf16 P and O: P rounded to bf16 at different scales in the two variants; causal rows 1..~30 average "
          "a few v ~ N(0,1), so that noise is bounded by 2^-8 max|v| < 2.4e-2 between the sides (1.56e-2 "
          "measured) while o can cancel to ~0; O rounded to bf16 after different fp32 sums (<= 1 ulp = 0.4%)");
    return aisp::Tolerance::loosened(
        1e-2, 5e-4,
        "bf16 P and O: P rounded to bf16 at different scales in the two variants (noise ~3e-5 per output, "
        "max ~2.5e-4 over 33.5M outputs) and O rounded to bf16 after different fp32 sums (<= 1 ulp = 0.4%)");
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 80}; }

 protected:
  virtual void setup_variant(aisp::Context&) {}
  int64_t batch_heads(aisp::Context& ctx) const { return ctx.param("batch") * ctx.param("heads"); }
  static float softmax_scale() { return 1.0f / std::sqrt(static_cast<float>(kAttnHeadDim)); }
};
