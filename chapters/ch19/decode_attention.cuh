// Decode attention building blocks shared by the ch19 KV-cache pairs (and ch20's KV-cache step): one query
// token per (sequence, head) attends to a long KV cache, o = softmax(q K^T / sqrt(128)) V, head dim 128.
// Work is split over the cache length (split-KV, "flash-decoding"): each CTA of 4 warps owns a range of
// tokens, each warp keeps an online-softmax state over the tokens it reads, the CTA merges its 4 warps and
// writes one fp32 partial (m, l, o[128]) per split, and combine_splits() merges the splits of a row.
// Scores are kept in log2 units (q pre-scaled by log2(e) / sqrt(d)), so every exponential is one exp2f.
// Lane i of a warp owns dims 4i..4i+3 of q, of every K/V row it reads and of the output accumulator.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace decode {

constexpr int kD = 128;
constexpr int kWarps = 4, kThreads = kWarps * 32;

inline float q_scale_log2() { return 1.4426950408889634f / std::sqrt(static_cast<float>(kD)); }

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

__device__ __forceinline__ float4 bf16x4_to_float4(uint2 v) {
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&v.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&v.y));
  return make_float4(a.x, a.y, b.x, b.y);
}

// This lane's 4 dims of q, scaled into log2 units.
__device__ __forceinline__ float4 load_q(const __nv_bfloat16* q_row, float scale) {
  const float4 q = bf16x4_to_float4(*reinterpret_cast<const uint2*>(q_row + 4 * (threadIdx.x % 32)));
  return make_float4(q.x * scale, q.y * scale, q.z * scale, q.w * scale);
}

__device__ __forceinline__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

// One warp's online-softmax state: running max m (log2 units), running sum l, this lane's 4 output dims.
struct WarpState {
  float m = -INFINITY, l = 0.0f;
  float4 acc = make_float4(0, 0, 0, 0);

  // Folds in U scored tokens (s = -inf for a token that does not exist) and their V rows.
  template <int U>
  __device__ __forceinline__ void update(const float (&s)[U], const float4 (&v)[U]) {
    float mx = m;
#pragma unroll
    for (int u = 0; u < U; ++u) mx = fmaxf(mx, s[u]);
    const float m_use = mx == -INFINITY ? 0.0f : mx;  // nothing seen yet: keep exp2 away from -inf - -inf
    const float alpha = exp2f(m - m_use);
    l *= alpha;
    acc = make_float4(acc.x * alpha, acc.y * alpha, acc.z * alpha, acc.w * alpha);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const float p = exp2f(s[u] - m_use);
      l += p;
      acc.x = fmaf(p, v[u].x, acc.x);
      acc.y = fmaf(p, v[u].y, acc.y);
      acc.z = fmaf(p, v[u].z, acc.z);
      acc.w = fmaf(p, v[u].w, acc.w);
    }
    m = mx;
  }
};

// Merges the CTA's warps and writes the split's partial: part_o[slot][128], part_ml[slot] = (m, l).
__device__ __forceinline__ void write_split_partial(const WarpState& st, float* __restrict__ part_o,
                                                    float2* __restrict__ part_ml, int64_t slot) {
  __shared__ float sm_m[kWarps], sm_l[kWarps];
  __shared__ float4 sm_acc[kWarps][32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) sm_m[warp] = st.m, sm_l[warp] = st.l;
  sm_acc[warp][lane] = st.acc;
  __syncthreads();
  const int t = threadIdx.x;  // dim t (kThreads == kD)
  float m = -INFINITY;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) m = fmaxf(m, sm_m[w]);
  const float m_use = m == -INFINITY ? 0.0f : m;
  float l = 0.0f, o = 0.0f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const float f = exp2f(sm_m[w] - m_use);
    l += f * sm_l[w];
    o += f * reinterpret_cast<const float*>(&sm_acc[w][0])[t];
  }
  part_o[slot * kD + t] = o;
  if (t == 0) part_ml[slot] = make_float2(m, l);
}

// One block of 128 threads per row (sequence x head): merges its `splits` partials, writes o in bf16.
__global__ void __launch_bounds__(kD) combine_splits(const float* __restrict__ part_o, const float2* __restrict__ part_ml,
                                                    int splits, __nv_bfloat16* __restrict__ o) {
  const int64_t row = blockIdx.x;
  const int t = threadIdx.x;
  float m = -INFINITY;
  for (int s = 0; s < splits; ++s) m = fmaxf(m, part_ml[row * splits + s].x);
  const float m_use = m == -INFINITY ? 0.0f : m;
  float l = 0.0f, acc = 0.0f;
  for (int s = 0; s < splits; ++s) {
    const float2 ml = part_ml[row * splits + s];
    const float f = exp2f(ml.x - m_use);
    l += f * ml.y;
    acc += f * part_o[(row * splits + s) * kD + t];
  }
  o[row * kD + t] = __float2bfloat16_rn(acc / l);
}

// Workspace for `rows x splits` partials, carved from one scratch allocation.
struct SplitWorkspace {
  float* part_o = nullptr;
  float2* part_ml = nullptr;
  static size_t bytes(int64_t rows, int splits) { return static_cast<size_t>(rows) * splits * (kD * 4 + 8); }
  void carve(void* base, int64_t rows, int splits) {
    part_o = static_cast<float*>(base);
    part_ml = reinterpret_cast<float2*>(part_o + rows * splits * kD);
  }
};

}  // namespace decode
