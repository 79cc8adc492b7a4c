// threshold: soft-thresholding (the shrinkage operator S(v) = sign(v) max(|v| - lambda, 0) of ISTA and
// wavelet denoising) inside a per-element fixed-point iteration v <- S(0.9 v + x), run for 256 steps.
// Shared by baseline_threshold.cu (S written with if/else branches) and optimized_threshold.cu (S written
// branch-free with fabs/fmax/copysign). Both produce the same values (the branch-free form returns -0.0
// where the branchy one returns +0.0, equal as numbers), so outputs compare exactly.
#pragma once
#include "aisp/aisp.hpp"

inline constexpr int64_t kThresholdN = int64_t{1} << 22;  // 4 Mi elements, 16 MiB in and out
inline constexpr int kThresholdSteps = 256;
inline constexpr float kThresholdLambda = 0.25f;
inline constexpr float kThresholdDecay = 0.9f;

inline aisp::Workload threshold_workload() {
  aisp::Workload w;
  w.params = {{"n", kThresholdN}, {"steps", kThresholdSteps}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kThresholdN) * sizeof(float);
  w.flops = 4.0 * static_cast<double>(kThresholdN) * kThresholdSteps;  // fma (2), |v| - lambda, max
  w.items = static_cast<double>(kThresholdN) * kThresholdSteps;
  w.item_unit = "element-steps";
  return w;
}

// The per-element fixed-point iteration both variants run; `Shrink` is the variant's form of S (the only
// thing that differs), applied in place to v once per step.
template <class Shrink>
__global__ void threshold_kernel(const float* __restrict__ x, float* __restrict__ v_out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float xi = x[i];
  float v = 0.0f;
  for (int s = 0; s < kThresholdSteps; ++s) {
    v = fmaf(kThresholdDecay, v, xi);
    v = Shrink{}(v);
  }
  v_out[i] = v;
}

// One thread per element, 256 per block.
template <class Shrink>
void launch_threshold(aisp::Context& ctx) {
  const int64_t n = ctx.param("n");
  constexpr int kThreads = 256;
  threshold_kernel<Shrink><<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
      ctx.buffer("x").as<const float>(), ctx.buffer("v").as<float>(), n);
  AISP_LAUNCH_CHECK();
}

// The pair's base: its workload and buffers; each variant adds only its shrink operator and run().
class ThresholdBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return threshold_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("v", aisp::DType::f32, {n});
  }
};
