// dynamic_quantized_cache: one decode step of attention over a KV cache, batch 4 x 32 heads x 8192 cached
// tokens x head dim 128. The step appends the new token's K and V to the cache (slot 8192) and then
// attends over all 8193 tokens: o = softmax(q K^T / sqrt(128)) V, split-KV (decode_attention.cuh).
// Inputs: q, k_new, v_new [4][32][128] bf16 (dynamic: this step's token) and the cache written by earlier
// steps, k_cache, v_cache [4][32][8192][128] bf16 (static: state, so setup() may store it in the
// variant's own format once, as a serving engine does when each token is first written).
//   baseline_dynamic_quantized_cache.cu   bf16 cache: 256 B per token-head for K and for V
//   optimized_dynamic_quantized_cache.cu  int8 cache with one fp32 scale per token-head (amax / 127),
//                                         quantized when a token is written (the new one inside run()):
//                                         132 B per token-head, half the bytes to read each step
// Declared precision i8 (the pair's lowest); declared bytes are the int8 cache's (the minimum a step must
// read), so the bf16 baseline's "achieved bandwidth" understates its real traffic by ~1.94x.
#pragma once
#include <cmath>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_attention.cuh"

namespace quant_cache {

constexpr int kSplits = 8;   // 4 x 32 rows x 8 splits = 1024 CTAs of 128 threads: ~8 per SM
constexpr int kUnroll = 8;   // tokens a warp loads before it reduces any score (bytes in flight)

inline int64_t context() { return aisp::axis("context", 8192); }

// Split `split` of a row of `len` tokens: [begin, end).
__device__ __forceinline__ void split_range(int64_t len, int split, int64_t& begin, int64_t& end) {
  const int64_t chunk = (len + kSplits - 1) / kSplits;
  begin = split * chunk;
  end = begin + chunk < len ? begin + chunk : len;
}

// The split-KV kernel over a cache stored as Kv (bf16, or int8 with per-token scales): each warp walks
// tokens begin + warp*U, + 4U, ... loading U rows of K and V before scoring any of them.
template <class Load>
__device__ __forceinline__ void attend_split(const __nv_bfloat16* q, int64_t len, float q_scale, Load load,
                                             float* part_o, float2* part_ml) {
  const int64_t row = blockIdx.y;
  const int warp = threadIdx.x / 32;
  int64_t begin, end;
  split_range(len, blockIdx.x, begin, end);
  const float4 qv = decode::load_q(q + row * decode::kD, q_scale);
  decode::WarpState st;
  for (int64_t base = begin + warp * kUnroll; base < end; base += decode::kWarps * kUnroll) {
    float4 k[kUnroll], v[kUnroll];
    float s[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t t = base + u < end ? base + u : end - 1;  // a clamped duplicate, masked below
      load(row * len + t, k[u], v[u]);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const float d = decode::warp_sum(decode::dot4(qv, k[u]));
      s[u] = base + u < end ? d : -INFINITY;
    }
    st.update<kUnroll>(s, v);
  }
  decode::write_split_partial(st, part_o, part_ml, row * kSplits + blockIdx.x);
}

class DynamicQuantizedCacheBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t batch = 4, heads = 32, len = context(), rows = batch * heads;
    aisp::Workload w;
    w.params = {{"batch", batch}, {"heads", heads}, {"context", len}, {"head_dim", decode::kD}};
    w.precision = aisp::DType::i8;
    // int8 K and V (+ a 4-byte scale each) for len + 1 tokens, plus q, k_new, v_new read and o written.
    w.bytes = 2.0 * rows * (len + 1) * (decode::kD + 4) + 4.0 * rows * decode::kD * 2;
    w.flops = 4.0 * rows * (len + 1) * decode::kD;
    w.items = double(batch);
    w.item_unit = "decode steps (sequences)";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("batch"), h = ctx.param("heads"), len = ctx.param("context");
    for (const char* name : {"q", "k_new", "v_new"})
      ctx.input(name, aisp::DType::bf16, {b, h, decode::kD}, aisp::Fill::normal(0, 1));
    for (const char* name : {"k_cache", "v_cache"})
      ctx.input(name, aisp::DType::bf16, {b, h, len, decode::kD}, aisp::Fill::normal(0, 1), aisp::Role::static_);
    ctx.output("o", aisp::DType::bf16, {b, h, decode::kD});
    ws_.carve(ctx.scratch("partials", decode::SplitWorkspace::bytes(b * h, kSplits)), b * h, kSplits);
    prepare(ctx);
  }
  // Scores move by the int8 rounding of K (per element <= amax/254, rms ~0.0066 for N(0,1) rows of 128):
  // rms 0.0066 in q.k/sqrt(d); with sqrt(sum p^2) ~ sqrt(e/8193) = 0.018 that moves o by ~1.2e-4 rms, and
  // V's rounding as much again: ~1.7e-4 rms, ~8.5e-4 at the 5-sigma tail of 16384 outputs. atol 2e-3 is
  // ~12 sigma of that and ~1/9 of |o| (rms 0.018); leaving out one split (1/8 of the keys) moves outputs by
  // ~3e-3 rms, so it cannot hide. rtol 1e-2: the final bf16 rounding (<= 1 ulp = 2^-8 apart).
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 2e-3,
        "int8 K/V with per-token-head scales: ~1.7e-4 rms output error (scores and values each rounded to "
        "amax/254), atol 2e-3 ~12 sigma and ~1/9 of rms |o|; rtol 1e-2 for the bf16 output rounding");
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  void combine(aisp::Context& ctx) {
    const unsigned rows = static_cast<unsigned>(ctx.param("batch") * ctx.param("heads"));
    decode::combine_splits<<<rows, decode::kD, 0, ctx.stream()>>>(ws_.part_o, ws_.part_ml, kSplits,
                                                                  ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  int64_t rows(aisp::Context& ctx) const { return ctx.param("batch") * ctx.param("heads"); }
  decode::SplitWorkspace ws_;
};

}  // namespace quant_cache
