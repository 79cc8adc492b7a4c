// launch_bounds: y = f(x) over n floats in a grid-stride loop, where f has a cheap common path and a
// rare, register-hungry fallback - the shape of a math-library function (a short polynomial on the
// usual range, an expensive exact evaluation outside it; cf. the Payne-Hanek slow path of sinf). Shared
// by baseline_launch_bounds.cu (kernel without __launch_bounds__) and optimized_launch_bounds.cu (the
// same kernel with __launch_bounds__(256, 8)). The source of f is identical, so the outputs are
// identical bit for bit; only the register allocation differs.
//
// The register demand is set by the rare path: it keeps the 128 states of an iterated map live for a
// max/softmax pass, so ptxas allocates 157 registers per thread (nvcc 13.0, sm_90a) for the whole kernel
// even though only |x| >= 0.99995 (1 element in 20000; ~1 warp-iteration in 600) ever runs it.
#pragma once
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

// 2^24 floats = 64 MiB in, 64 MiB out (128 MiB per run, 2.5x the L2).
inline constexpr int64_t kLaunchBoundsN = int64_t{1} << 24;
inline constexpr int kLaunchBoundsThreads = 256;
inline constexpr float kRareThreshold = 0.99995f;
inline constexpr int kRareTerms = 128;

inline aisp::Workload launch_bounds_workload() {
  aisp::Workload w;
  w.params = {{"n", kLaunchBoundsN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kLaunchBoundsN) * sizeof(float);
  w.items = static_cast<double>(kLaunchBoundsN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class LaunchBoundsBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return launch_bounds_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
  }
};

// Rare path: iterate t <- 0.75 + k/1000 - t^2 / 2 from t_0 = x for 128 steps, then return the
// softmax-weighted mean of the 128 states. The max must be known before any exp, so all 128 states are
// live at once: ~128 registers.
__device__ __forceinline__ float launch_bounds_rare_path(float x) {
  float t[kRareTerms];
  t[0] = x;
#pragma unroll
  for (int k = 1; k < kRareTerms; ++k) t[k] = fmaf(t[k - 1] * t[k - 1], -0.5f, 0.75f + 0.001f * k);
  float m = t[0];
#pragma unroll
  for (int k = 1; k < kRareTerms; ++k) m = fmaxf(m, t[k]);
  float num = 0.0f, den = 0.0f;
#pragma unroll
  for (int k = 0; k < kRareTerms; ++k) {
    const float e = __expf(t[k] - m);
    den += e;
    num = fmaf(e, t[k], num);
  }
  return __fdividef(num, den);
}

// Common path: an odd degree-9 polynomial (a tanh-like squashing), a handful of FMAs.
__device__ __forceinline__ float launch_bounds_common_path(float x) {
  const float x2 = x * x;
  float p = fmaf(x2, 0.0107f, -0.0539f);
  p = fmaf(p, x2, 0.1333f);
  p = fmaf(p, x2, -0.3333f);
  p = fmaf(p, x2, 1.0f);
  return x * p;
}

// The loop body both kernels share. The loop stays rolled (one element per iteration, as nvcc leaves a
// loop whose body is this large), so each thread has exactly one 4-byte load in flight: bandwidth is
// set by how many threads the SM can hold - by occupancy.
__device__ __forceinline__ void launch_bounds_body(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float v = x[i];
    y[i] = fabsf(v) < kRareThreshold ? launch_bounds_common_path(v) : launch_bounds_rare_path(v);
  }
}

// One full wave: as many blocks as the SMs hold at this kernel's occupancy (a device property and the
// kernel's resource usage - nothing input-dependent).
template <class Kernel>
inline unsigned launch_bounds_wave(Kernel kernel, int sm_count) {
  int blocks_per_sm = 0;
  AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kLaunchBoundsThreads, 0));
  if (blocks_per_sm < 1) blocks_per_sm = 1;
  return static_cast<unsigned>(blocks_per_sm * sm_count);
}
