// labs/decode: one decode step of one transformer layer (Llama-style, synthetic weights) for a batch of 8
// sequences, each with 4096 tokens already in a paged KV cache:
//
//   xn  = RMSNorm(x) * gamma1                      x [8][2048] bf16: the new token of every sequence (dynamic)
//   q, k, v = xn Wqkv^T                            Wqkv [3 x 2048][2048] (rows: q, then k, then v)
//   o   = softmax(q [K_cache; k]^T / sqrt(128)) [V_cache; v]   per head (16 heads x 128): the 4096 cached
//                                                  tokens through the block table, plus the new token itself
//   h1  = x + o Wo^T                               (fp32 residual stream)
//   hn  = RMSNorm(h1) * gamma2
//   a   = silu(hn Wg^T) * (hn Wu^T)                Wgu [2 x 6144][2048] (gate rows, then up rows)
//   y   = h1 + a Wd^T                              Wd [2048][6144]
// Outputs: y [8][2048] bf16 and kv_new [8][2][2048] bf16, the new token's K and V (the row the engine appends
// to the cache; the cache itself is static input state, which run() must not modify).
// The paged cache is ch18's (paged_attn_backend.cuh): pools k_pool / v_pool [blocks][16 heads][16][128] bf16,
// one random permutation of the pool as the block table (blocks of a sequence scattered, as in a serving
// engine after a while). Rotary embeddings are left out (ch18 rope_q_cache covers them).
//
// Bytes of one step: weights 109 MB (Wqkv 25.2, Wo 8.4, Wgu 50.3, Wd 25.2) + KV cache 268 MB + small change:
// ~377 MB. At 8 tokens per step this is firmly memory bound (~2.4 FLOP per byte vs the ~300 FLOP/B ridge):
// the roofline is bytes / HBM bandwidth (3166 GB/s measured read on the H100, docs/measurements/hw_h100.md):
// ~119 us, ~67k tokens/s for this layer.
//   baseline_decode_step.cu                  one kernel per op (11 launches): RMSNorm kernels, cuBLAS GEMMs
//                                            with fp32 outputs, elementwise kernels, a naive paged attention
//                                            (one CTA per (sequence, head), vLLM paged_attention_v1 schedule)
//   optimized_decode_step_split_attention.cu step 1: the baseline with the attention replaced by split-KV
//                                            (flash-decoding) paged attention over the whole GPU
//   optimized_decode_step.cu                 step 2: + fused GEMVs: RMSNorm into the QKV and gate/up weight
//                                            streams, SiLU*up and the residual adds in their epilogues: 6
//                                            launches, every one a weight or cache stream
// Every variant rounds to bf16 at the same points (xn, q/k/v, o, hn, a, y) and normalizes with the same code
// (below); only fp32 summation orders differ (tolerance() says what that costs and how it was measured).
#pragma once
#include <cuda_bf16.h>

#include <cstdint>
#include <stdexcept>

#include "../../chapters/ch18/paged_attn_backend.cuh"
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

namespace decode_lab {

constexpr int kBatch = 8;                   // sequences (= tokens of this step)
constexpr int kHeads = 16;                  // q heads = kv heads (MHA)
constexpr int kHidden = kHeads * ch18::kD;  // 2048
constexpr int kInter = 6144;                // MLP width (3 x hidden)
constexpr int kBlock = paged_attn::kBlock;  // 16 tokens per cache block
constexpr float kEps = 1e-6f;
// The attention output is an average of ~4097 value rows: rms ~ sqrt(e / 4097) ~ 0.026 for N(0,1) values and
// N(0,1) scores. Wo is scaled up by 32 so the attention branch adds ~0.8 rms to the residual stream, as large
// as the MLP's: an error in attention then moves y as much as an error in the MLP (verification sees both).
constexpr double kWoGain = 32.0;

inline int64_t context() { return aisp::axis("context", 4096); }

// 1 / rms of a row of k values (+eps), computed by one warp: lane l sums row[l + 32j]^2 in j order, then a
// fixed xor tree. Every lane returns the same value; every variant normalizes with exactly this code.
template <class T>
__device__ __forceinline__ float to_f(T v);
template <>
__device__ __forceinline__ float to_f<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <>
__device__ __forceinline__ float to_f<float>(float v) {
  return v;
}

template <class T>
__device__ __forceinline__ float rms_inverse(const T* __restrict__ row, int k) {
  float ss = 0.0f;
  for (int i = threadIdx.x % 32; i < k; i += 32) {
    const float v = to_f(row[i]);
    ss = __fmaf_rn(v, v, ss);
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  return rsqrtf(ss / static_cast<float>(k) + kEps);
}

// One warp writes the normalized row (bf16) to out[0..k): out[i] = bf16(row[i] * r * gamma[i]).
template <class T>
__device__ __forceinline__ void rms_norm_row(const T* __restrict__ row, const __nv_bfloat16* __restrict__ gamma, int k,
                                             __nv_bfloat16* out) {
  const float r = rms_inverse(row, k);
  for (int i = threadIdx.x % 32; i < k; i += 32)
    out[i] = __float2bfloat16_rn(__fmul_rn(__fmul_rn(to_f(row[i]), r), __bfloat162float(gamma[i])));
}

__device__ __forceinline__ float silu_mul(float g, float u) { return g / (1.0f + expf(-g)) * u; }

// Sums of 32 lanes, xor tree (every lane gets the sum).
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// Scratch every variant holds between its kernels (bf16 where the model rounds, fp32 residual stream).
struct Activations {
  __nv_bfloat16* q = nullptr;  // [8][2048]
  __nv_bfloat16* o = nullptr;  // [8][2048] attention output
  float* h1 = nullptr;         // [8][2048] residual after attention
  __nv_bfloat16* a = nullptr;  // [8][6144] silu(gate) * up
};

class DecodeStepBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t len = context();
    aisp::Workload w;
    w.params = {{"batch", kBatch}, {"heads", kHeads},      {"hidden", kHidden}, {"intermediate", kInter},
                {"context", len},  {"head_dim", ch18::kD}, {"block", kBlock}};
    w.precision = aisp::DType::bf16;
    const double weights =
        3.0 * kHidden * kHidden + double(kHidden) * kHidden + 2.0 * kInter * kHidden + double(kHidden) * kInter;  // elements
    const double cache = 2.0 * kBatch * kHeads * double(len) * ch18::kD;  // K and V elements
    // Minimum traffic: every weight and cached K/V element read once (bf16), the block table, x and the
    // norms' gammas read, y and kv_new written.
    w.bytes =
        2.0 * (weights + cache) + 4.0 * kBatch * (len / kBlock) + 2.0 * 2 * kHidden + 2.0 * kBatch * kHidden * (1 + 1 + 2);
    w.flops = 2.0 * kBatch * weights + 4.0 * kBatch * kHeads * double(len + 1) * ch18::kD;
    w.items = kBatch;  // one new token per sequence
    w.item_unit = "tokens";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::throughput; }
  void setup(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    if (len % kBlock) throw std::runtime_error("labs/decode: context must be a multiple of 16");
    if (len < 1024 || len > 16384)  // where tolerance_sim.cpp measured the tolerance's error tail
      throw std::runtime_error("labs/decode: the pair's tolerance is simulated for contexts 1024..16384");
    const int64_t blocks = kBatch * (len / kBlock);
    const double a_h = 0.03827327723098713;   // sqrt(3 / 2048): var(w) = 1/2048, so a row . xn ~ N(0, ~1)
    const double a_i = 0.022097086912079608;  // sqrt(3 / 6144)
    ctx.input("x", aisp::DType::bf16, {kBatch, kHidden}, aisp::Fill::normal(0, 1));
    ctx.input("gamma1", aisp::DType::bf16, {kHidden}, aisp::Fill::uniform(0.5, 1.5), aisp::Role::static_);
    ctx.input("gamma2", aisp::DType::bf16, {kHidden}, aisp::Fill::uniform(0.5, 1.5), aisp::Role::static_);
    ctx.input("w_qkv", aisp::DType::bf16, {3 * kHidden, kHidden}, aisp::Fill::uniform(-a_h, a_h), aisp::Role::static_);
    ctx.input("w_o", aisp::DType::bf16, {kHidden, kHidden}, aisp::Fill::uniform(-a_h * kWoGain, a_h * kWoGain),
              aisp::Role::static_);
    ctx.input("w_gate_up", aisp::DType::bf16, {2 * kInter, kHidden}, aisp::Fill::uniform(-a_h, a_h), aisp::Role::static_);
    ctx.input("w_down", aisp::DType::bf16, {kHidden, kInter}, aisp::Fill::uniform(-a_i, a_i), aisp::Role::static_);
    for (const char* name : {"k_pool", "v_pool"})
      ctx.input(name, aisp::DType::bf16, {blocks, kHeads, kBlock, ch18::kD}, aisp::Fill::normal(0, 1), aisp::Role::static_);
    ctx.input("block_table", aisp::DType::i32, {kBatch, len / kBlock}, aisp::Fill::custom(paged_attn::permutation_fill),
              aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {kBatch, kHidden});
    ctx.output("kv_new", aisp::DType::bf16, {kBatch, 2, kHidden});
    act_.q = static_cast<__nv_bfloat16*>(ctx.scratch("q", size_t{kBatch} * kHidden * 2));
    act_.o = static_cast<__nv_bfloat16*>(ctx.scratch("o", size_t{kBatch} * kHidden * 2));
    act_.h1 = static_cast<float*>(ctx.scratch("h1", size_t{kBatch} * kHidden * 4));
    act_.a = static_cast<__nv_bfloat16*>(ctx.scratch("a", size_t{kBatch} * kInter * 2));
    prepare(ctx);
  }
  // The variants round at the same points as the baseline (xn, q/k/v, o, hn, a, y; fp32 residual stream) and
  // differ only in fp32 summation order (cuBLAS vs a warp GEMV; one pass over the context vs split-KV
  // partials merged). That difference is ~1e-7 relative where it starts, but the bf16 roundings downstream
  // amplify it: o rounds apart in ~0.05% of its elements, which moves h1 by ~1.5e-5 rms; that flips ~0.3-1%
  // of hn's bf16 roundings, each a 2^-8 relative step fed through 2048 gate/up weights, so a rounds apart in
  // 3-12% of its elements (rms ~3-7e-4); through Wd that moves y by 3-7.5e-4 rms before y's own rounding,
  // on every element, near zero too. The first H100 run (2026-11-28) failed with atol 2e-3: 17 (step 1) and
  // 122 (step 2) of 32768 y elements just above it, near zero (rel err ~20 where |y| ~ 1e-4).
  // tolerance_sim.cpp emulates the kernels' orders on the harness's own fills (context 4096, 2 rounds per
  // seed; cuBLAS modeled as sequential fp32 or as tensor-core groups with truncated alignment): per check,
  // 5-76 mismatches at atol 2e-3 for step 2 and 0-29 for step 1, the largest |e| - 1e-2 |y_ref| up to 5.1e-3,
  // and a tail that falls e-fold every ~6.3e-4. The H100's counts (122 and 17) sit above the models': its
  // errors are ~1.5x theirs. Scaled so, a check's largest error is ~5-7.6e-3 and P(one above t) ~
  // 122 exp(-(t - 2e-3) / 9.6e-4): ~3% at 1e-2 (~0.04% if only the count, not the scale, is larger): atol
  // 1e-2. rtol 1e-2 covers y's own one-ulp flips (<= 2^-7 relative). What must still fail does (same
  // program, the smallest atol that would hide it in the worst round): one 256-token split of one (sequence,
  // head) left out 0.13 (0.06 at context 16384), the new token left out of attention 0.053 (0.016 at
  // 16384). kv_new is one projection rounded once: one ulp apart, or a few ulps of a value far below atol
  // near zero (0 mismatches in every emulated round). setup() refuses contexts outside 1024..16384.
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(1e-2, 1e-2,
                                     "fp32 summation order (cuBLAS vs warp GEMV, single pass vs split-KV merge) "
                                     "amplified by the bf16 roundings of o, hn and a into y: CPU emulation of the "
                                     "kernels' orders (labs/decode/tolerance_sim.cpp) <= 5.1e-3 above 1e-2 |y|, "
                                     "x1.5 to match the H100's mismatch counts, tail to ~3% per run; a missing "
                                     "split needs >= 0.06");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  Activations act_;
};

}  // namespace decode_lab
