// occupancy_tuning: softsign, y = x / (1 + |x|), over n floats in a grid-stride loop launched as one full
// wave. Shared by baseline_occupancy_tuning.cu (one warp per block) and optimized_occupancy_tuning.cu
// (block size picked from the occupancy calculator); the kernel is the same, so outputs are identical.
#pragma once
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

// 2^24 floats = 64 MiB in, 64 MiB out (128 MiB per run, 2.5x the L2).
inline constexpr int64_t kOccupancyN = int64_t{1} << 24;

inline aisp::Workload occupancy_tuning_workload() {
  aisp::Workload w;
  w.params = {{"n", kOccupancyN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kOccupancyN) * sizeof(float);
  w.flops = 3.0 * static_cast<double>(kOccupancyN);
  w.items = static_cast<double>(kOccupancyN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class OccupancyTuningBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return occupancy_tuning_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
  }
};

// Kept rolled: one 4-byte load in flight per thread per iteration, so the bytes in flight - and with
// them the bandwidth (Little's law) - are set by how many threads are resident: by occupancy.
__global__ void softsign_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float v = x[i];
    y[i] = __fdividef(v, 1.0f + fabsf(v));
  }
}

// Resident blocks per SM for a block size, from the occupancy calculator: it applies the SM's limits on
// registers (65536), warps (64), blocks (32 on Hopper) and shared memory to this kernel's resources.
inline int softsign_blocks_per_sm(int block_threads) {
  int blocks = 0;
  AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, softsign_kernel, block_threads, 0));
  return blocks > 0 ? blocks : 1;
}
