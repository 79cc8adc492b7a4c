// dynamic_parallelism: adaptive refinement of a 256 Ki-element fp32 signal, a recursion whose shape the data
// decides. A segment [lo, lo + len) is split in half when it is longer than 256 elements and its sum is
// large for its length (|sum| > 0.1 sqrt(len), true ~86% of the time for uniform(-1, 1) data); otherwise it
// is a leaf: each of its elements gets the segment's mean (`y`) and the leaf's depth (`depth`). Up to 10
// levels, a few hundred segments, different for every fresh input: the control flow of adaptive mesh
// refinement, tree builds and recursive partitioning.
// Shared by baseline_dynamic_parallelism.cu (the host drives the recursion level by level, reading back
// how many segments the next level has) and optimized_dynamic_parallelism.cu (a segment's block launches
// its two children itself, device-side). Every segment is reduced by one 256-thread block with the same
// code, so outputs match bit for bit whatever order the segments run in.
//
// The baseline's cost is host round trips, so both run()s open the timed window on the host
// (../common/host_window.hpp).
#pragma once
#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

inline constexpr int64_t kRefineN = int64_t{1} << 18, kRefineMinLen = 256;
inline constexpr float kRefineTau = 0.1f;

namespace {

constexpr int kRefineThreads = 256;

// The block's sum of x[lo, lo + len) (fixed thread mapping and tree order: deterministic), then either
// "split" (returned to every thread) or the leaf's outputs written.
__device__ __forceinline__ bool refine_segment(const float* __restrict__ x, float* __restrict__ y,
                                               int* __restrict__ depth_out, int64_t lo, int64_t len, int depth) {
  __shared__ float partial[kRefineThreads];
  __shared__ int split;
  float s = 0.f;
  for (int64_t i = threadIdx.x; i < len; i += kRefineThreads) s += x[lo + i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = kRefineThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const float sum = partial[0];
    split = len > kRefineMinLen && fabsf(sum) > kRefineTau * sqrtf(static_cast<float>(len));
  }
  __syncthreads();
  if (split) return true;
  const float mean = partial[0] / static_cast<float>(len);
  for (int64_t i = threadIdx.x; i < len; i += kRefineThreads) {
    y[lo + i] = mean;
    depth_out[lo + i] = depth;
  }
  return false;
}

}  // namespace

class DynamicParallelismBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kRefineN}, {"min_len", kRefineMinLen}};
    w.precision = aisp::DType::f32;
    w.bytes = kRefineN * (sizeof(float) + sizeof(float) + sizeof(int));  // x read, y and depth written once
    w.flops = static_cast<double>(kRefineN);  // at least one add per element (more per level it is split)
    w.items = 1;
    w.item_unit = "refinements";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
    ctx.output("depth", aisp::DType::i32, {ctx.param("n")});
  }
};
