// A/A pair for `--bench-root` (issue 18, hole 6): baseline and optimized run the *same* copy kernel, so
// any difference between them is between-process noise. With no A/A calibration the verdict must be
// SAME, run after run (scripts/aa_same_check.sh runs it 5 times). 16 Mi floats: a memory-bound copy
// (~128 MB of DRAM traffic, tens of microseconds on an H100), where between-process shifts are largest.
#pragma once
#include "aisp/aisp.hpp"

inline constexpr int64_t kAaN = int64_t{1} << 24;

inline aisp::Workload aa_copy_workload() {
  aisp::Workload w;
  w.params = {{"n", kAaN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kAaN) * sizeof(float);  // one read and one write per element
  w.flops = 0;
  return w;
}

__global__ void aa_copy_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i];
}

struct AaCopy : aisp::Benchmark {
  aisp::Workload workload() const override { return aa_copy_workload(); }
  void setup(aisp::Context& ctx) override {
    int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
  }
  void run(aisp::Context& ctx) override {
    int64_t n = ctx.param("n");
    aa_copy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        ctx.buffer("x").as<float>(), ctx.buffer("y").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }
};
