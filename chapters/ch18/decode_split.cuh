// Decode attention building blocks shared by the ch18 pairs: one query token per row (sequence x head)
// attends to a long KV cache, o = softmax(q K^T / sqrt(128)) V, head dim 128.
//
// Layout of the work (why it looks like this): a half-warp owns one token at a time, each of its 16 lanes
// holds 8 of the 128 dims, so every K or V row is read with one 16-byte load per lane (256 B per row,
// fully coalesced) and a score needs only 4 shuffles. A half-warp walks U consecutive tokens per step and
// issues all 2U loads (K and V) before it scores any of them: 32 B x U per lane in flight (a warp walks
// 2U consecutive tokens, its two halves U each). Each half-warp keeps its own online-softmax state
// (running max m in log2 units, running sum l, its 8 dims of the output accumulator); the CTA merges them
// at the end. The same loop serves every ch18 decode variant; what
// differs is where a token's bytes come from (a `Loader`: contiguous, paged through a block table, fp8 with
// per-block scales) and how many CTAs share a row (one: a single pass; many: split-KV, flash-decoding).
// Scores are kept in log2 units (q pre-scaled by log2(e)/sqrt(d)), so every exponential is one exp2f.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aisp/aisp.hpp"

namespace ch18 {

constexpr int kD = 128;

inline float q_scale_log2() { return 1.4426950408889634f / std::sqrt(static_cast<float>(kD)); }

__device__ __forceinline__ void bf16x8_to_float(const uint4& u, float (&f)[8]) {
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&u);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 x = __bfloat1622float2(h[i]);
    f[2 * i] = x.x;
    f[2 * i + 1] = x.y;
  }
}

// Sum over the 16 lanes of a half-warp (xor offsets below 16 never cross halves).
__device__ __forceinline__ float half_warp_sum(float x) {
#pragma unroll
  for (int o = 8; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// One half-warp's online-softmax state and this lane's 8 output dims.
struct State {
  float m = -INFINITY, l = 0.0f;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};

  // Folds in U scored tokens (s = -inf for a masked token) and their V values (this lane's 8 dims).
  template <int U>
  __device__ __forceinline__ void update(const float (&s)[U], const float (&v)[U][8]) {
    float mx = m;
#pragma unroll
    for (int u = 0; u < U; ++u) mx = fmaxf(mx, s[u]);
    const float m_use = mx == -INFINITY ? 0.0f : mx;  // nothing seen yet: keep exp2 away from -inf - -inf
    const float alpha = exp2f(m - m_use);
    l *= alpha;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc[i] *= alpha;
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const float p = exp2f(s[u] - m_use);
      l += p;
#pragma unroll
      for (int i = 0; i < 8; ++i) acc[i] = fmaf(p, v[u][i], acc[i]);
    }
    m = mx;
  }
};

// Walks tokens [begin, end) of one row with W warps (2W half-warps): warp w takes 2U consecutive tokens
// at begin + w*2U + j*(2W*U), its first half-warp the first U of them, its second half the next U. The
// loop condition is per warp (never per half-warp), so both halves always reach the shuffles together;
// tokens past `end` are clamped for the load and masked (score -inf). `load.fetch(t)` returns the raw bytes
// of token t for this lane, `load.convert(raw, t, k, v)` turns them into this lane's 8 dims of K and V
// (scales applied). q: this lane's 8 dims of the query, already in log2 units.
template <int W, int U, class Loader>
__device__ __forceinline__ State attend_range(const Loader& load, int64_t begin, int64_t end, const float (&q)[8]) {
  const int warp = threadIdx.x / 32, half = (threadIdx.x / 16) % 2;
  State st;
  for (int64_t wbase = begin + warp * 2 * U; wbase < end; wbase += 2 * W * U) {
    const int64_t base = wbase + half * U;
    typename Loader::Raw raw[U];
#pragma unroll
    for (int u = 0; u < U; ++u) raw[u] = load.fetch(base + u < end ? base + u : end - 1);  // clamped, masked below
    float s[U], v[U][8];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      float k[8];
      load.convert(raw[u], base + u < end ? base + u : end - 1, k, v[u]);
      float d = 0.0f;
#pragma unroll
      for (int i = 0; i < 8; ++i) d = fmaf(q[i], k[i], d);
      d = half_warp_sum(d);
      s[u] = base + u < end ? d : -INFINITY;
    }
    st.update<U>(s, v);
  }
  return st;
}

// Merges the CTA's 2W half-warp states. Returns, in thread t < 128, dim t of the unnormalized output,
// and in m / l the CTA's max and sum (same in every thread). Needs W*(128+2) floats of shared memory.
template <int W>
__device__ __forceinline__ float merge_cta(const State& st, float& m_out, float& l_out) {
  __shared__ float sm_m[2 * W], sm_l[2 * W];
  __shared__ float sm_acc[2 * W][kD];
  const int group = threadIdx.x / 16, sub = threadIdx.x % 16;
  if (sub == 0) sm_m[group] = st.m, sm_l[group] = st.l;
#pragma unroll
  for (int i = 0; i < 8; ++i) sm_acc[group][8 * sub + i] = st.acc[i];
  __syncthreads();
  float m = -INFINITY;
#pragma unroll
  for (int g = 0; g < 2 * W; ++g) m = fmaxf(m, sm_m[g]);
  const float m_use = m == -INFINITY ? 0.0f : m;
  float l = 0.0f, o = 0.0f;
  const int t = threadIdx.x % kD;
#pragma unroll
  for (int g = 0; g < 2 * W; ++g) {
    const float f = exp2f(sm_m[g] - m_use);
    l += f * sm_l[g];
    o += f * sm_acc[g][t];
  }
  m_out = m;
  l_out = l;
  return o;
}

// This lane's 8 dims of a bf16 query row, scaled into log2 units.
__device__ __forceinline__ void load_q(const __nv_bfloat16* q_row, float scale, float (&q)[8]) {
  bf16x8_to_float(*reinterpret_cast<const uint4*>(q_row + 8 * (threadIdx.x % 16)), q);
#pragma unroll
  for (int i = 0; i < 8; ++i) q[i] *= scale;
}

// Split-KV partials: per (row, split) slot, o[128] unnormalized and (m, l).
struct Partials {
  float* o = nullptr;
  float2* ml = nullptr;
  static size_t bytes(int64_t rows, int splits) { return static_cast<size_t>(rows) * splits * (kD * 4 + 8); }
  void carve(void* base, int64_t rows, int splits) {
    o = static_cast<float*>(base);
    ml = reinterpret_cast<float2*>(o + rows * splits * kD);
  }
};

// Token range of split `split` of `splits` over a row of `len` tokens, in multiples of 16 (a cache block,
// so a split never starts inside a block).
__device__ __forceinline__ void split_range(int64_t len, int split, int splits, int64_t& begin, int64_t& end) {
  const int64_t blocks = (len + 15) / 16, per = (blocks + splits - 1) / splits;
  begin = min(len, split * per * 16);
  end = min(len, (split + 1) * per * 16);
}

// Merges each row's `splits` partials and writes o in bf16: one CTA per row, 8 groups of 128 threads;
// group g folds splits g, g+8, ... (loads unrolled, so ~splits/8/4 memory round trips instead of one per
// split: a serial loop over ~100 splits measured tens of microseconds on an H100), then the groups merge
// in shared memory in a fixed order.
constexpr int kCombineGroups = 8, kCombineThreads = kD * kCombineGroups;
__global__ void __launch_bounds__(kCombineThreads) combine_splits(Partials p, int splits, __nv_bfloat16* __restrict__ o) {
  __shared__ float red_m[kCombineGroups], red_l[kCombineGroups], red_acc[kCombineGroups][kD];
  const int64_t row = blockIdx.x;
  const int t = threadIdx.x % kD, g = threadIdx.x / kD;
  float m = -INFINITY;
#pragma unroll 4
  for (int s = g; s < splits; s += kCombineGroups) m = fmaxf(m, p.ml[row * splits + s].x);
  if (t == 0) red_m[g] = m;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kCombineGroups; ++i) m = fmaxf(m, red_m[i]);
  const float m_use = m == -INFINITY ? 0.0f : m;
  float l = 0.0f, acc = 0.0f;
#pragma unroll 4
  for (int s = g; s < splits; s += kCombineGroups) {
    const float2 ml = p.ml[row * splits + s];
    const float f = exp2f(ml.x - m_use);
    l += f * ml.y;
    acc += f * p.o[(row * splits + s) * kD + t];
  }
  red_acc[g][t] = acc;
  if (t == 0) red_l[g] = l;
  __syncthreads();
  if (g == 0) {
    float lsum = 0.0f, osum = 0.0f;
#pragma unroll
    for (int i = 0; i < kCombineGroups; ++i) lsum += red_l[i], osum += red_acc[i][t];
    o[row * kD + t] = __float2bfloat16_rn(osum / lsum);
  }
}

inline void combine(cudaStream_t stream, const Partials& p, int splits, int64_t rows, __nv_bfloat16* o) {
  combine_splits<<<static_cast<unsigned>(rows), kCombineThreads, 0, stream>>>(p, splits, o);
}

// Split count that fills the GPU with about two waves of `threads`-thread CTAs of `kernel`, from the
// device's SM count and the kernel's occupancy (read from the device, never hard-coded), but no split
// shorter than kMinSplitTokens: shorter splits add partials (and merge work) faster than they add
// parallelism (FA3's split heuristic avoids them for the same reason).
constexpr int64_t kMinSplitTokens = 256;
template <class Kernel>
int choose_splits(Kernel kernel, int threads, int sm_count, int64_t rows, int64_t len) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0) != cudaSuccess || per_sm < 1) per_sm = 1;
  const int64_t slots = static_cast<int64_t>(per_sm) * sm_count;
  const int64_t splits = std::max<int64_t>(1, (2 * slots) / rows);
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(splits, len / kMinSplitTokens)));
}

// The contiguous bf16 cache loader: K and V rows [row][len][128].
struct ContiguousBf16 {
  const __nv_bfloat16* k;
  const __nv_bfloat16* v;
  int64_t row_base;  // row * len, set per CTA
  struct Raw {
    uint4 k, v;
  };
  __device__ __forceinline__ Raw fetch(int64_t t) const {
    const int64_t off = (row_base + t) * kD + 8 * (threadIdx.x % 16);
    return {__ldg(reinterpret_cast<const uint4*>(k + off)), __ldg(reinterpret_cast<const uint4*>(v + off))};
  }
  __device__ __forceinline__ void convert(const Raw& r, int64_t, float (&kf)[8], float (&vf)[8]) const {
    bf16x8_to_float(r.k, kf);
    bf16x8_to_float(r.v, vf);
  }
};

// The end of every split-KV CTA: merge the warps' states (merge_cta) and write the split's partial, slot
// row * splits + split (blockIdx.x), for combine().
template <int kWarps>
__device__ __forceinline__ void write_partial(const State& st, Partials& part, int64_t row, int splits) {
  float m, l;
  const float acc = merge_cta<kWarps>(st, m, l);
  const int64_t slot = row * splits + blockIdx.x;
  part.o[slot * kD + threadIdx.x] = acc;
  if (threadIdx.x == 0) part.ml[slot] = make_float2(m, l);
}

// Split-KV decode attention over the contiguous bf16 cache (ContiguousBf16), grid (splits, rows) of kWarps-warp
// CTAs: each attends its split of its row and writes the partial; combine() merges them. ch18's
// flash_decoding, the contiguous reference of paged_attn_backend and mla_latent_kv's full-heads baseline.
template <int kWarps, int kUnroll>
__global__ void __launch_bounds__(kWarps * 32) split_kv_contiguous(const __nv_bfloat16* __restrict__ q, ContiguousBf16 load,
                                                                   int64_t len, float q_scale, int splits, Partials part) {
  const int64_t row = blockIdx.y;
  load.row_base = row * len;
  int64_t begin, end;
  split_range(len, blockIdx.x, splits, begin, end);
  float qv[8];
  load_q(q + row * kD, q_scale, qv);
  const State st = attend_range<kWarps, kUnroll>(load, begin, end, qv);
  write_partial<kWarps>(st, part, row, splits);
}

// A split-KV variant against a single pass over the same bf16 cache: the two sum the same fp32 terms in
// different orders (relative differences ~1e-6) and the bf16 output can then round one ulp apart: up to
// 2^-7 relative (rtol 1e-2); atol 1e-4 covers outputs near zero, where one bf16 ulp is up to 6e-5
// (|o| < 2^-6). flash_decoding and paged_attn_backend; each pair's header says why a lost split is outside.
inline aisp::Tolerance split_merge_tolerance() {
  return aisp::Tolerance::loosened(1e-2, 1e-4,
                                   "fp32 reassociation (single pass vs split merge) then bf16 output rounding: "
                                   "one bf16 ulp (<= 2^-7 relative, <= 6e-5 absolute for |o| < 2^-6)");
}

}  // namespace ch18
