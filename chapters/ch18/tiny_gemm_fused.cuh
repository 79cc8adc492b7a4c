// tiny_gemm_fused: the first half of a decode step's MLP for a batch of 8 tokens (Llama-style, hidden
// 4096, intermediate 8192, bf16): h = silu(xn Wg^T) * (xn Wu^T), xn = RMSNorm(x) * gamma.
//   inputs  x [8][4096] (dynamic); gamma [4096], w_gate_up [2 x 8192][4096] (static: rows 0..8191 the gate
//           projection, 8192.. the up projection, merged as vLLM's MergedColumnParallelLinear stores them)
//   output  h [8][8192] bf16
// With 8 tokens the GEMM is a weight read (134 MB at 8 FLOP per weight byte, far below the ~295 FLOP/B
// ridge), so a decode step is bound by bytes and by how many kernels it launches.
//   baseline_tiny_gemm_fused.cu   vLLM's unfused decode path: rms_norm kernel (xn in bf16), one merged
//                                 gate_up GEMM (cuBLAS, fp32 out), silu_and_mul kernel: 3 launches
//   optimized_tiny_gemm_fused.cu  one kernel: every CTA normalizes the 8 rows into shared memory (64 KB,
//                                 from L2), then its warps stream 16 gate rows and the same 16 up rows
//                                 each into mma.sync (bf16 in, fp32 accumulate; the 8 tokens are the
//                                 instruction's n = 8) and write h = silu(g) * u from the accumulators
// Both normalize with the same code (rms_inverse and norm_chunk below: same summation order, same
// rounding: identical xn);
// the GEMM's fp32 sums differ in order (cuBLAS vs mma.sync over permuted K slices), so h can round one
// bf16 ulp apart.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace tiny_gemm {

constexpr int kTokens = 8, kHidden = 4096, kInter = 8192;
constexpr float kEps = 1e-6f;

// 1 / rms of row x[0..k) (+eps), computed by one warp (k a multiple of 256): lane l loads the 16-byte
// chunks l, l+32, ... (all k/256 loads in flight: a row costs one memory round trip, not one per element)
// and sums their squares in chunk order, element order within a chunk; then a fixed xor-tree over the
// lanes. Every lane returns the same value; both variants call exactly this.
__device__ __forceinline__ float rms_inverse(const __nv_bfloat16* __restrict__ x, int k) {
  constexpr int kMaxChunks = kHidden / 256;
  const int lane = threadIdx.x % 32, chunks = k / 256;
  uint4 v[kMaxChunks];
#pragma unroll
  for (int j = 0; j < kMaxChunks; ++j)
    if (j < chunks) v[j] = __ldg(reinterpret_cast<const uint4*>(x) + lane + 32 * j);
  float ss = 0.0f;
#pragma unroll
  for (int j = 0; j < kMaxChunks; ++j) {
    if (j >= chunks) break;
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v[j]);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float2 f = __bfloat1622float2(h[i]);
      ss = __fmaf_rn(f.x, f.x, ss);
      ss = __fmaf_rn(f.y, f.y, ss);
    }
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  return rsqrtf(ss / static_cast<float>(k) + kEps);
}

// 8 normalized elements (one 16-byte chunk of x and of gamma), as bf16.
__device__ __forceinline__ uint4 norm_chunk(uint4 x, uint4 gamma, float r);

__device__ __forceinline__ __nv_bfloat16 norm_element(__nv_bfloat16 x, __nv_bfloat16 gamma, float r) {
  return __float2bfloat16_rn(__fmul_rn(__fmul_rn(__bfloat162float(x), r), __bfloat162float(gamma)));
}

__device__ __forceinline__ uint4 norm_chunk(uint4 x, uint4 gamma, float r) {
  uint4 out;
  const __nv_bfloat16* xs = reinterpret_cast<const __nv_bfloat16*>(&x);
  const __nv_bfloat16* gs = reinterpret_cast<const __nv_bfloat16*>(&gamma);
  __nv_bfloat16* os = reinterpret_cast<__nv_bfloat16*>(&out);
#pragma unroll
  for (int i = 0; i < 8; ++i) os[i] = norm_element(xs[i], gs[i], r);
  return out;
}

__device__ __forceinline__ float silu_mul(float g, float u) { return g / (1.0f + expf(-g)) * u; }

class TinyGemmFusedBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"tokens", kTokens}, {"hidden", kHidden}, {"intermediate", kInter}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * (2.0 * kInter * kHidden + kTokens * kHidden + kHidden + kTokens * kInter);
    w.flops = 2.0 * kTokens * kHidden * (2.0 * kInter);
    w.items = kTokens;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::bf16, {kTokens, kHidden}, aisp::Fill::normal(0, 1));
    ctx.input("gamma", aisp::DType::bf16, {kHidden}, aisp::Fill::uniform(0.5, 1.5), aisp::Role::static_);
    const double a = 1.7320508075688772 / 64.0;  // sqrt(3 / 4096): var(w) = 1/4096, so g and u ~ N(0, ~1)
    ctx.input("w_gate_up", aisp::DType::bf16, {2 * kInter, kHidden}, aisp::Fill::uniform(-a, a), aisp::Role::static_);
    ctx.output("h", aisp::DType::bf16, {kTokens, kInter});
    prepare(ctx);
  }
  // The gate and up sums (4096 products, |g| ~ 1) differ only in fp32 summation order: ~1e-6 apart, which
  // can move the bf16 rounding of h by one ulp (<= 2^-7 relative): rtol 1e-2. atol 1e-5 stays the bf16
  // default. Dropping or mis-indexing one weight row changes |h| by ~0.5 there: far outside.
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(1e-2, 1e-5,
                                     "fp32 GEMM summation order (cuBLAS vs mma.sync) then bf16 rounding of h: "
                                     "one bf16 ulp, <= 2^-7 relative");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};

}  // namespace tiny_gemm
