// occupancy_tuning: a gated mixture, y = m(x) * g + m(g) * x over n floats, where m(v) is a softmax-
// weighted mixture of 8 cubic "experts" of v (8 polynomials, their max, 8 exps, a weighted mean). It
// stands for any elementwise kernel whose math needs a few dozen registers. Shared by
// baseline_occupancy_tuning.cu (1024-thread blocks) and optimized_occupancy_tuning.cu (block size
// picked from the occupancy calculator); the kernel source is the same, so outputs are identical.
#pragma once
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

// 2^24 floats per buffer: x and g in, y out, 192 MiB per run.
inline constexpr int64_t kOccupancyN = int64_t{1} << 24;
inline constexpr int kMixtureExperts = 8;

inline aisp::Workload occupancy_tuning_workload() {
  aisp::Workload w;
  w.params = {{"n", kOccupancyN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * static_cast<double>(kOccupancyN) * sizeof(float);
  w.items = static_cast<double>(kOccupancyN);
  w.item_unit = "elements";
  return w;
}

inline void declare_occupancy_tuning_buffers(aisp::Context& ctx) {
  const int64_t n = ctx.param("n");
  ctx.input("x", aisp::DType::f32, {n});
  ctx.input("g", aisp::DType::f32, {n});
  ctx.output("y", aisp::DType::f32, {n});
}

__device__ __forceinline__ float expert_mixture(float v) {
  float p[kMixtureExperts];
#pragma unroll
  for (int j = 0; j < kMixtureExperts; ++j) {
    const float a = 0.3f + 0.17f * j, b = -0.5f + 0.13f * j, c = 0.2f - 0.07f * j;
    p[j] = fmaf(fmaf(fmaf(c, v, b), v, a), v, 0.05f * j);
  }
  float m = p[0];
#pragma unroll
  for (int j = 1; j < kMixtureExperts; ++j) m = fmaxf(m, p[j]);
  float num = 0.0f, den = 0.0f;
#pragma unroll
  for (int j = 0; j < kMixtureExperts; ++j) {
    const float w = __expf(p[j] - m);
    den += w;
    num = fmaf(w, p[j], num);
  }
  return __fdividef(num, den);
}

// Grid-stride loop, kept rolled: each thread has its two 4-byte loads in flight, then ~100 instructions
// of math with nothing in flight. Throughput therefore scales with the number of resident threads.
__global__ void gated_mixture_kernel(const float* __restrict__ x, const float* __restrict__ g, float* __restrict__ y,
                                     int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float v = x[i], gv = g[i];
    y[i] = fmaf(expert_mixture(v), gv, expert_mixture(gv) * v);
  }
}

// Resident blocks per SM for a block size, from the occupancy calculator (registers, shared memory,
// block and warp limits of this device).
inline int gated_mixture_blocks_per_sm(int block_threads) {
  int blocks = 0;
  AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gated_mixture_kernel, block_threads, 0));
  return blocks;
}
