// mla_latent_kv: a decode step of multi-head latent attention (MLA, DeepSeek-V2): the cache holds one
// 512-wide latent vector per token instead of 16 heads' K and V. 16 heads x head dim 128, latent 512,
// 16384 cached tokens, bf16. (The decoupled RoPE part of MLA is left out: it adds 64 dims per token to
// both variants alike.)
//   inputs  c [16384][512] (the latent cache, static state), w_uk, w_uv [16][512][128] (each head's key and
//           value up-projections, static), q [16][128] (the step's query, dynamic)
//   output  o [16][128] bf16, o_h = softmax(q_h K_h^T / sqrt(128)) V_h with K_h = c w_uk_h, V_h = c w_uv_h
//   baseline_mla_latent_kv.cu   full heads: setup() materializes K and V per head (what a cache without
//                               MLA stores: 8 KB per token), run() is split-KV decode attention over them
//                               (decode_split.cuh), 134 MB read per step
//   optimized_mla_latent_kv.cu  weight absorption: q_lat_h = w_uk_h q_h (512 wide), attention directly over
//                               the latent rows (all 16 heads share each row: 1 KB per token, 16.8 MB per
//                               step), o_h = (sum_t p_t c_t) w_uv_h at the end
// q_h . K_h[t] = q_h . (c_t w_uk_h) = (w_uk_h q_h) . c_t, and sum_t p_t V_h[t] = (sum_t p_t c_t) w_uv_h:
// the same function, evaluated in another order.
#pragma once
#include <cuda_bf16.h>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_split.cuh"

namespace mla {

constexpr int kHeads = 16, kLatent = 512;

inline int64_t context() { return aisp::axis("context", 16384); }

class MlaLatentKvBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t len = context();
    aisp::Workload w;
    w.params = {{"context", len}, {"heads", kHeads}, {"latent", kLatent}, {"head_dim", ch18::kD}};
    w.precision = aisp::DType::bf16;
    // Minimum per step: the latent cache and both up-projections read once, q in, o out.
    w.bytes = 2.0 * len * kLatent + 2.0 * 2 * kHeads * kLatent * ch18::kD + 4.0 * kHeads * ch18::kD;
    w.flops = 4.0 * kHeads * len * kLatent + 4.0 * kHeads * kLatent * ch18::kD;  // the absorbed form's
    w.items = double(len);
    w.item_unit = "cached tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    if (len % 16) throw std::runtime_error("mla_latent_kv: context must be a multiple of 16");
    const double a = 0.07654655446197431;  // sqrt(3 / 512): var(w) = 1/512, so K and V ~ N(0, ~1)
    ctx.input("c", aisp::DType::bf16, {len, kLatent}, aisp::Fill::normal(0, 1), aisp::Role::static_);
    ctx.input("w_uk", aisp::DType::bf16, {kHeads, kLatent, ch18::kD}, aisp::Fill::uniform(-a, a), aisp::Role::static_);
    ctx.input("w_uv", aisp::DType::bf16, {kHeads, kLatent, ch18::kD}, aisp::Fill::uniform(-a, a), aisp::Role::static_);
    ctx.input("q", aisp::DType::bf16, {kHeads, ch18::kD}, aisp::Fill::normal(0, 1));
    ctx.output("o", aisp::DType::bf16, {kHeads, ch18::kD});
    prepare(ctx);
  }
  // The full-head baseline stores K and V rounded to bf16 (relative rms ~1e-3 per element); the absorbed
  // form never rounds them. A CPU simulation of this workload at 4096 tokens (errors shrink with longer
  // contexts) gave |o_full - o_absorbed| rms 6.3e-5, max 2.7e-4 over 2048 outputs (rms |o| 0.052). atol
  // 5e-4 is ~1.8x that maximum; rtol 1e-2 covers one bf16 ulp of the output rounding (<= 2^-7).
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(1e-2, 5e-4,
                                     "full heads round K and V to bf16, the absorbed form does not: simulated "
                                     "|delta o| max 2.7e-4 (rms 6.3e-5) at 4096 tokens; plus one bf16 output ulp");
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
};

}  // namespace mla
