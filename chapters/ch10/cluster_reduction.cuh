// cluster_reduction: RMSNorm of rows too long for one SM, y[r][c] = x[r][c] * gamma[c] / sqrt(mean_c x^2 + eps),
// 2048 rows x 65536 fp32 columns (256 KiB per row - more than an SM's 227 KiB of shared memory or its
// 256 KiB register file can hold next to anything else). A row is therefore split over 8 blocks of 256
// threads (32 KiB each), and the 8 partial sums of squares must be combined before any block can scale its
// slice. The pair differs only in how they are combined:
//   baseline_cluster_reduction.cu:  global atomics - kernel 1 reads x and atomicAdds each block's partial
//                                   into a per-row sum in global memory; kernel 2 reads x again and writes y
//   optimized_cluster_reduction.cu: the 8 blocks of a row form a thread-block cluster; each block keeps its
//                                   slice in registers, publishes its partial in shared memory and reads the
//                                   other 7 over distributed shared memory (DSMEM), then writes y: x is read
//                                   from HBM once instead of twice
// Both sum in fp32; the atomics add the 8 partials in arrival order, the cluster in rank order, so outputs
// differ in the last bits only: the f32 default tolerance applies.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace cluster_reduction {

inline constexpr int64_t kRows = 2048, kCols = 65536;
inline constexpr int kSplit = 8;                           // blocks (cluster size) per row
inline constexpr int kThreads = 256;
inline constexpr int kSliceCols = static_cast<int>(kCols) / kSplit;   // 8192 floats = 32 KiB per block
inline constexpr int kVecPerThread = kSliceCols / 4 / kThreads;      // 8 float4 per thread
inline constexpr float kEps = 1e-6f;
static_assert(kSliceCols % (4 * kThreads) == 0, "whole float4 steps");

inline aisp::Workload workload() {
  aisp::Workload w;
  w.params = {{"rows", kRows}, {"cols", kCols}};
  w.precision = aisp::DType::f32;
  const double elements = static_cast<double>(kRows) * kCols;
  w.bytes = 2.0 * elements * sizeof(float) + kCols * sizeof(float);  // x read once, y written once, gamma
  w.flops = 4.0 * elements;                                          // x^2 + sum, then x * scale * gamma
  w.items = static_cast<double>(kRows);
  w.item_unit = "rows";
  return w;
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cluster_reduction::workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("x", aisp::DType::f32, {rows, cols});
    ctx.input("gamma", aisp::DType::f32, {cols}, aisp::Fill::uniform(0.5, 1.5));
    ctx.output("y", aisp::DType::f32, {rows, cols});
    setup_variant(ctx);
  }
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }

 protected:
  virtual void setup_variant(aisp::Context&) {}
};

// Sum over the block's 256 threads; every thread gets the result. `scratch` holds one float per warp.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0.0f;
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) total += scratch[w];
  return total;
}

// One block's slice: row blockIdx.y, columns [blockIdx.x * 8192, +8192) as float4s, coalesced: thread t
// holds float4s t, t + 256, ... of the slice.
__device__ __forceinline__ int64_t slice_vec(int i) {
  return static_cast<int64_t>(blockIdx.y) * (kCols / 4) + static_cast<int64_t>(blockIdx.x) * (kSliceCols / 4) +
         i * kThreads + threadIdx.x;
}

__device__ __forceinline__ float sum_squares(const float4& a) {
  return fmaf(a.x, a.x, fmaf(a.y, a.y, fmaf(a.z, a.z, a.w * a.w)));
}

__device__ __forceinline__ float4 scale_row(const float4& a, const float4& g, float s) {
  return make_float4(a.x * s * g.x, a.y * s * g.y, a.z * s * g.z, a.w * s * g.w);
}

}  // namespace cluster_reduction
