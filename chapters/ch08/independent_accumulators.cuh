// independent_accumulators: brute-force maximum inner-product search. For each of m queries (dimension
// 128, stored dimension-major so that loading them is coalesced) find the best score max_j <q, k_j> over
// 512 keys. One thread per query keeps its query in 128 registers; a block stages 32 keys at a time in
// shared memory, and every lane reads the same key word (a broadcast, one wavefront). Shared by
// baseline_independent_accumulators.cu (each dot product as one FMA chain) and
// optimized_independent_accumulators.cu (four interleaved partial sums).
#pragma once
#include <cmath>

#include "aisp/aisp.hpp"

inline constexpr int64_t kMipsQueries = 65536;
inline constexpr int64_t kMipsKeys = 512;
inline constexpr int kMipsDim = 128;
inline constexpr int kMipsKeysPerTile = 32;  // 32 keys x 128 floats = 16 KiB of shared memory
inline constexpr int kMipsThreads = 256;

inline aisp::Workload independent_accumulators_workload() {
  aisp::Workload w;
  w.params = {{"queries", kMipsQueries}, {"keys", kMipsKeys}, {"dim", kMipsDim}};
  w.precision = aisp::DType::f32;
  w.bytes = (static_cast<double>(kMipsQueries) * kMipsDim + static_cast<double>(kMipsKeys) * kMipsDim +
             static_cast<double>(kMipsQueries)) * sizeof(float);
  w.flops = 2.0 * static_cast<double>(kMipsQueries) * kMipsKeys * kMipsDim;
  w.items = static_cast<double>(kMipsQueries) * kMipsKeys;
  w.item_unit = "scores";
  return w;
}

inline void declare_independent_accumulators_buffers(aisp::Context& ctx) {
  const int64_t m = ctx.param("queries"), n = ctx.param("keys"), d = ctx.param("dim");
  // |q|, |k| <= 1: the tolerance below is derived from this bound, so keep the two in step.
  ctx.input("queries_t", aisp::DType::f32, {d, m}, aisp::Fill::uniform(-1, 1));  // [dim][query]
  ctx.input("keys", aisp::DType::f32, {n, d}, aisp::Fill::uniform(-1, 1));       // [key][dim]
  ctx.output("best", aisp::DType::f32, {m});
}

// Why the default fp32 tolerance cannot hold: the optimized variant adds each 128-term dot product in a
// different order (four interleaved partial sums, combined at the end), so its scores differ from the
// baseline's by rounding. For any order, |fl(s) - s| <= gamma_d * sum |q_i k_i| with gamma_d = d u /
// (1 - d u), u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, sec. 3.1); two orders
// differ by at most twice that, and |q|, |k| <= 1 bounds the sum by d. The max over keys moves by no more
// than the largest score change, so |best_baseline - best_optimized| <= 2 gamma_128 * 128 = 1.95e-3.
inline aisp::Tolerance independent_accumulators_tolerance() {
  const double u = std::ldexp(1.0, -24), d = kMipsDim;
  const double gamma_d = d * u / (1.0 - d * u);
  return aisp::Tolerance::loosened(
      1e-5, 2.0 * gamma_d * d,
      "four partial sums add each 128-term dot product in another order; FP32 bound |d best| <= "
      "2*gamma_128*sum|q||k| <= 2*gamma_128*128 = 1.95e-3 for |q|,|k| <= 1 (Higham 3.1)");
}

// The kernel skeleton both variants share: load the query into registers, stage key tiles, score each
// key with DotProduct, keep the max. DotProduct(q, key_row) returns <q, key_row>.
template <class DotProduct>
__device__ __forceinline__ void mips_body(const float* __restrict__ queries_t, const float* __restrict__ keys,
                                          float* __restrict__ best, int64_t m, int64_t n, DotProduct dot) {
  __shared__ float4 tile[kMipsKeysPerTile][kMipsDim / 4];
  const int64_t qi = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float q[kMipsDim];
#pragma unroll
  for (int d = 0; d < kMipsDim; ++d) q[d] = qi < m ? queries_t[d * m + qi] : 0.0f;  // coalesced over queries

  float best_score = -INFINITY;
  for (int64_t k0 = 0; k0 < n; k0 += kMipsKeysPerTile) {
    __syncthreads();  // the previous tile is no longer being read
    const float4* src = reinterpret_cast<const float4*>(keys + k0 * kMipsDim);
    for (int i = threadIdx.x; i < kMipsKeysPerTile * kMipsDim / 4; i += blockDim.x) {
      const int key = i / (kMipsDim / 4);
      tile[key][i % (kMipsDim / 4)] = k0 + key < n ? src[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    __syncthreads();
    const int keys_here = static_cast<int>(n - k0 < kMipsKeysPerTile ? n - k0 : kMipsKeysPerTile);
    // Kept rolled in both variants: the keys could also be interleaved for ILP (the same idea, applied
    // across dot products); this pair isolates the accumulators within one dot product.
#pragma unroll 1
    for (int j = 0; j < keys_here; ++j) best_score = fmaxf(best_score, dot(q, tile[j]));
  }
  if (qi < m) best[qi] = best_score;
}
