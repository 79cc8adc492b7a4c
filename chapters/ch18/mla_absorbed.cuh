// mla_latent_kv: the absorbed form's small kernels, shared by both optimized variants (the CUDA-core
// optimized_mla_latent_kv.cu and the tensor-core optimized_mla_latent_kv_tc.cu). They differ only in the
// kernel that reads the latent cache; around it:
//  1. absorb_q: q_lat_h[j] = (log2 e / sqrt(128)) * sum_d q_h[d] w_uk_h[j][d], fp32 [16][512].
//  3. combine_latent: merges the per-CTA partials (o_lat unnormalized, max, sum in log2 units) into o_lat.
//  4. up_project: o_h[d] = sum_j o_lat_h[j] w_uv_h[j][d], o in bf16.
#pragma once
#include <cuda_bf16.h>

#include "mla_latent_kv.cuh"

namespace mla {

__global__ void __launch_bounds__(kLatent) absorb_q(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ w_uk,
                                                    float scale, float* __restrict__ q_lat) {
  __shared__ float qs[ch18::kD];
  const int h = blockIdx.x, j = threadIdx.x;
  if (j < ch18::kD) qs[j] = __bfloat162float(q[h * ch18::kD + j]);
  __syncthreads();
  const uint4* row = reinterpret_cast<const uint4*>(w_uk + (int64_t(h) * kLatent + j) * ch18::kD);
  float acc = 0.0f;
#pragma unroll
  for (int c = 0; c < ch18::kD / 8; ++c) {  // all 16 loads in flight
    float f[8];
    ch18::bf16x8_to_float(__ldg(row + c), f);
#pragma unroll
    for (int i = 0; i < 8; ++i) acc = fmaf(qs[8 * c + i], f[i], acc);
  }
  q_lat[h * kLatent + j] = acc * scale;
}


__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}


// grid 16 heads x 4 chunks of 128 latent dims, 8 groups of 128 threads: group g folds CTAs' partials
// g, g+8, ... (loads unrolled: a few memory round trips instead of one per partial), the groups merge in
// shared memory; writes o_lat (fp32, normalized).
constexpr int kGroups = 8;
__global__ void __launch_bounds__(128 * kGroups)
    combine_latent(const float* __restrict__ part_o, const float2* __restrict__ part_ml, int splits,
                   float* __restrict__ o_lat) {
  __shared__ float red_m[kGroups], red_l[kGroups], red_acc[kGroups][128];
  const int h = blockIdx.x, t = threadIdx.x % 128, g = threadIdx.x / 128, j = blockIdx.y * 128 + t;
  float mx = -INFINITY;
#pragma unroll 4
  for (int s = g; s < splits; s += kGroups) mx = fmaxf(mx, part_ml[s * kHeads + h].x);
  if (t == 0) red_m[g] = mx;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kGroups; ++i) mx = fmaxf(mx, red_m[i]);
  float l = 0.0f, acc = 0.0f;
#pragma unroll 4
  for (int s = g; s < splits; s += kGroups) {
    const float2 ml = part_ml[s * kHeads + h];
    const float f = ml.y == 0.0f ? 0.0f : exp2f(ml.x - mx);  // l == 0: a CTA that got no tiles
    l += f * ml.y;
    acc += f * part_o[(int64_t(s) * kHeads + h) * kLatent + j];
  }
  red_acc[g][t] = acc;
  if (t == 0) red_l[g] = l;
  __syncthreads();
  if (g == 0) {
    float lsum = 0.0f, osum = 0.0f;
#pragma unroll
    for (int i = 0; i < kGroups; ++i) lsum += red_l[i], osum += red_acc[i][t];
    o_lat[h * kLatent + j] = osum / lsum;
  }
}

// One CTA per head, 8 groups of 128 threads (thread = output dim d): group g sums o_lat[j] w_uv[j][d]
// over j in [64g, 64g + 64) (w_uv rows read coalesced, 16 loads in flight per thread), the groups merge in
// shared memory in a fixed order and o is written in bf16.
__global__ void __launch_bounds__(ch18::kD* kGroups)
    up_project(const float* __restrict__ o_lat, const __nv_bfloat16* __restrict__ w_uv, __nv_bfloat16* __restrict__ o) {
  __shared__ float ol[kLatent], red[kGroups][ch18::kD];
  const int h = blockIdx.x, d = threadIdx.x % ch18::kD, g = threadIdx.x / ch18::kD;
  for (int j = threadIdx.x; j < kLatent; j += blockDim.x) ol[j] = o_lat[h * kLatent + j];
  __syncthreads();
  constexpr int kPer = kLatent / kGroups;
  const __nv_bfloat16* w = w_uv + (int64_t(h) * kLatent + g * kPer) * ch18::kD + d;
  float out = 0.0f;
#pragma unroll 16
  for (int j = 0; j < kPer; ++j) out = fmaf(ol[g * kPer + j], __bfloat162float(w[int64_t(j) * ch18::kD]), out);
  red[g][d] = out;
  __syncthreads();
  if (g == 0) {
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kGroups; ++i) sum += red[i][d];
    o[h * ch18::kD + d] = __float2bfloat16_rn(sum);
  }
}

}  // namespace mla
