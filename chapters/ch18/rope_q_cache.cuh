// rope_q_cache: the rotary position embedding (RoPE) of a step's new tokens, fused with the write of their
// K and V into the paged KV cache. 2048 new tokens (a prefill chunk, or a batch of decode tokens) x 32
// heads (q and kv, Llama-2-7B's shape) x head dim 128, bf16:
//   inputs  q, k, v [2048][32][128]; positions [2048] (each token's position, 0..8191); slot_mapping [2048]
//           (the cache slot each token is written to: a permutation, as a block allocator hands out slots);
//           cos_sin [8192][128] fp32 (vLLM's cos_sin_cache: 64 cosines then 64 sines per position, static)
//   outputs q_rot [2048][32][128] (RoPE(q), what attention reads next), k_cache, v_cache [2048 slots][32][128]
//           (k_cache[slot[t]] = RoPE(k[t]), v_cache[slot[t]] = v[t])
// RoPE is the "rotate half" (GPT-NeoX) form: dims i and i+64 rotate by pos * 10000^(-i/64).
//   baseline_rope_q_cache.cu   vLLM's unfused path: rotary kernel (q -> q_rot, k -> k_rot, a temporary),
//                              then reshape_and_cache (k_rot and v -> cache slots)
//   optimized_rope_q_cache.cu  one kernel: each token's q, k, v are read once, q and k rotated in
//                              registers, and q_rot and the cache slots written directly
// Both rotate with the same explicitly rounded operations (rope_pair below), so outputs are bit-identical
// and the default bf16 tolerance holds. The work is a pure copy with a few FLOPs per element: time is bytes.
#pragma once
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <numeric>

#include "../common/permutation_fill.hpp"
#include "aisp/aisp.hpp"

namespace rope {

constexpr int kD = 128, kHalf = 64, kMaxPos = 8192;

// vLLM's cos_sin_cache: row p = cos(p * f_i) for i < 64, then sin(p * f_i), f_i = 10000^(-i/64). A table of
// the model, not data: the same for every seed.
inline void cos_sin_fill(uint64_t, void* host, int64_t count) {
  auto* out = static_cast<float*>(host);
  for (int64_t p = 0; p < count / kD; ++p)
    for (int i = 0; i < kHalf; ++i) {
      const double angle = static_cast<double>(p) * std::pow(10000.0, -static_cast<double>(i) / kHalf);
      out[p * kD + i] = static_cast<float>(std::cos(angle));
      out[p * kD + kHalf + i] = static_cast<float>(std::sin(angle));
    }
}

// The slot mapping's fill: a permutation of 0..count-1 (../common/permutation_fill.hpp): every cache slot is
// written exactly once.
constexpr auto slot_fill = fills::permutation_fill;

// Rotates 8 pairs (x1 = dims c*8.., x2 = dims 64+c*8..) with cos/sin row cs (fp32, cos then sin), rounding
// each product explicitly so that every kernel computing it produces the same bits.
__device__ __forceinline__ void rope_pair(uint4& x1, uint4& x2, const float* __restrict__ cs, int c) {
  __nv_bfloat162* a = reinterpret_cast<__nv_bfloat162*>(&x1);
  __nv_bfloat162* b = reinterpret_cast<__nv_bfloat162*>(&x2);
  const float4* cp = reinterpret_cast<const float4*>(cs + c * 8);
  const float4* sp = reinterpret_cast<const float4*>(cs + kHalf + c * 8);
  const float4 c0 = __ldg(cp), c1 = __ldg(cp + 1), s0 = __ldg(sp), s1 = __ldg(sp + 1);
  const float cv[8] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w};
  const float sv[8] = {s0.x, s0.y, s0.z, s0.w, s1.x, s1.y, s1.z, s1.w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const float2 u = __bfloat1622float2(a[j]), w = __bfloat1622float2(b[j]);
    const float u0 = __fmaf_rn(u.x, cv[2 * j], -__fmul_rn(w.x, sv[2 * j]));
    const float u1 = __fmaf_rn(u.y, cv[2 * j + 1], -__fmul_rn(w.y, sv[2 * j + 1]));
    const float w0 = __fmaf_rn(w.x, cv[2 * j], __fmul_rn(u.x, sv[2 * j]));
    const float w1 = __fmaf_rn(w.y, cv[2 * j + 1], __fmul_rn(u.y, sv[2 * j + 1]));
    a[j] = __floats2bfloat162_rn(u0, u1);
    b[j] = __floats2bfloat162_rn(w0, w1);
  }
}

class RopeQCacheBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t tokens = 2048, heads = 32, per_tensor = tokens * heads * kD * 2;
    aisp::Workload w;
    w.params = {{"tokens", tokens}, {"heads", heads}, {"head_dim", kD}, {"max_position", kMaxPos}};
    w.precision = aisp::DType::bf16;
    // q, k, v read; q_rot, k_cache, v_cache written; positions, slots and one cos/sin row per token read.
    w.bytes = 6.0 * per_tensor + 8.0 * tokens + tokens * kD * 4.0;
    w.flops = 6.0 * tokens * heads * kD;  // 2 products + 1 fma per rotated element, q and k
    w.items = double(tokens);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), h = ctx.param("heads");
    for (const char* name : {"q", "k", "v"}) ctx.input(name, aisp::DType::bf16, {t, h, kD}, aisp::Fill::normal(0, 1));
    ctx.input("positions", aisp::DType::i32, {t}, aisp::Fill::int_range(0, kMaxPos - 1));
    ctx.input("slot_mapping", aisp::DType::i32, {t}, aisp::Fill::custom(slot_fill));
    ctx.input("cos_sin", aisp::DType::f32, {kMaxPos, kD}, aisp::Fill::custom(cos_sin_fill), aisp::Role::static_);
    for (const char* name : {"q_rot", "k_cache", "v_cache"}) ctx.output(name, aisp::DType::bf16, {t, h, kD});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};

}  // namespace rope
