// flash_decoding: one decode step of attention for one sequence with a long context: 32 heads x 32768
// cached tokens x head dim 128, bf16 K/V [32][32768][128] (537 MB), q [32][128], o = softmax(qK^T/sqrt(d))V.
//   baseline_flash_decoding.cu   single pass: one CTA of 16 warps per head (32 CTAs), FlashAttention-2's
//                                decode schedule; the CTA walks the head's whole cache and writes o
//   optimized_flash_decoding.cu  split-KV (flash-decoding): the cache of each head is cut into splits so
//                                that ~2 waves of 4-warp CTAs cover every SM; each writes a partial
//                                (o, max, sum), a second kernel merges a row's partials
// Both run the same inner loop (decode_split.cuh: 16-byte loads, 4 tokens per half-warp in flight, online
// softmax), so the only difference is how many SMs read the cache. A decode step is a pure read of K and V
// (4 FLOP per byte): the time is bytes / bandwidth, and a single pass can use only 32 of the 132 SMs.
// Inputs are dynamic (refilled for every sample): nothing about the cache can be carried between runs.
#pragma once
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_split.cuh"

namespace flash_decoding {

inline int64_t context() { return aisp::axis("context", 32768); }

class FlashDecodingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t heads = 32, len = context();
    aisp::Workload w;
    w.params = {{"batch", 1}, {"heads", heads}, {"context", len}, {"head_dim", ch18::kD}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * heads * len * ch18::kD * 2 + 2.0 * heads * ch18::kD * 2;  // K and V read; q in, o out
    w.flops = 4.0 * heads * len * ch18::kD;
    w.items = double(heads) * len;
    w.item_unit = "cached tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t h = ctx.param("heads"), len = ctx.param("context");
    ctx.input("q", aisp::DType::bf16, {h, ch18::kD}, aisp::Fill::normal(0, 1));
    ctx.input("k", aisp::DType::bf16, {h, len, ch18::kD}, aisp::Fill::normal(0, 1));
    ctx.input("v", aisp::DType::bf16, {h, len, ch18::kD}, aisp::Fill::normal(0, 1));
    ctx.output("o", aisp::DType::bf16, {h, ch18::kD});
    prepare(ctx);
  }
  // The single pass and the split-KV merge sum the same fp32 terms in different orders (relative
  // differences ~1e-6), and the bf16 output can then round one ulp apart: up to 2^-7 relative (rtol 1e-2).
  // atol 1e-4 covers outputs near zero, where one bf16 ulp is up to 6e-5 (|o| < 2^-6; rms |o| ~ 0.01 here).
  // Leaving out any split (1/60 of the keys) moves outputs by ~1e-3: far outside.
  aisp::Tolerance tolerance() const override { return ch18::split_merge_tolerance(); }

 protected:
  virtual void prepare(aisp::Context&) {}
};

}  // namespace flash_decoding
