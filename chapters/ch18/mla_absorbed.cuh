// mla_latent_kv: the absorbed form's small kernels, shared by both optimized variants (the CUDA-core
// optimized_mla_latent_kv.cu and the tensor-core optimized_mla_latent_kv_tc.cu). They differ only in the
// kernel that reads the latent cache; around it:
//  1. absorb_q: q_lat_h[j] = (log2 e / sqrt(128)) * sum_d q_h[d] w_uk_h[j][d], fp32 [16][512].
//  3. combine_latent: merges the per-CTA partials (o_lat unnormalized, max, sum in log2 units) into o_lat.
//  4. up_project: o_h[d] = sum_j o_lat_h[j] w_uv_h[j][d], o in bf16.
#pragma once
#include <cuda_bf16.h>

#include <algorithm>
#include <climits>
#include <cstdint>

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

// Both optimized variants: the absorbed form's four launches and its scratch, around the variant's own
// latent-attention kernel (one CTA per split, `threads` threads, `smem` bytes of dynamic shared memory).
class MlaAbsorbedBase : public MlaLatentKvBase {
 protected:
  using AttendLatent = void (*)(const __nv_bfloat16*, const float*, int64_t, int, float*, float2*);

  void run_absorbed(aisp::Context& ctx, AttendLatent attend, int threads, size_t smem) {
    absorb_q<<<kHeads, kLatent, 0, ctx.stream()>>>(ctx.buffer("q").as<const __nv_bfloat16>(),
                                                   ctx.buffer("w_uk").as<const __nv_bfloat16>(), ch18::q_scale_log2(), q_lat_);
    AISP_LAUNCH_CHECK();
    attend<<<splits_, threads, smem, ctx.stream()>>>(ctx.buffer("c").as<const __nv_bfloat16>(), q_lat_, ctx.param("context"),
                                                     splits_, part_o_, part_ml_);
    AISP_LAUNCH_CHECK();
    combine_latent<<<dim3(kHeads, kLatent / 128), 128 * kGroups, 0, ctx.stream()>>>(part_o_, part_ml_, splits_, o_lat_);
    AISP_LAUNCH_CHECK();
    up_project<<<kHeads, ch18::kD * kGroups, 0, ctx.stream()>>>(o_lat_, ctx.buffer("w_uv").as<const __nv_bfloat16>(),
                                                                ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

  // splits = min(context / tile, resident CTAs per SM (at most max_per_sm) x SMs): one wave of CTAs.
  void prepare_absorbed(aisp::Context& ctx, AttendLatent attend, int threads, size_t smem, int tile, int max_per_sm) {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(attend, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    int per_sm = 0;
    AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, attend, threads, smem));
    const int64_t tiles = ctx.param("context") / tile;
    splits_ = static_cast<int>(std::min<int64_t>(tiles, int64_t(std::clamp(per_sm, 1, max_per_sm)) * ctx.device().sm_count));
    q_lat_ = static_cast<float*>(ctx.scratch("q_lat", size_t{kHeads} * kLatent * 4));
    o_lat_ = static_cast<float*>(ctx.scratch("o_lat", size_t{kHeads} * kLatent * 4));
    part_o_ = static_cast<float*>(ctx.scratch("partial_o", size_t(splits_) * kHeads * kLatent * 4));
    part_ml_ = static_cast<float2*>(ctx.scratch("partial_ml", size_t(splits_) * kHeads * 8));
  }

 private:
  int splits_ = 1;
  float* q_lat_ = nullptr;
  float* o_lat_ = nullptr;
  float* part_o_ = nullptr;
  float2* part_ml_ = nullptr;
};

}  // namespace mla
