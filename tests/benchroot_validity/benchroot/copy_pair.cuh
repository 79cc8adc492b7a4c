// The bench-root validity fixtures (issue 18, hole 3): pairs compiled on demand by `--bench-root`, like a
// user's own kernels, to prove that such plugins are built like in-tree ones (shared CUDA runtime) and so
// get the same checks. A 1 Mi-float copy; each optimized file says what it does and what must catch it.
#pragma once
#include "aisp/aisp.hpp"

namespace benchroot {

inline constexpr int64_t kN = int64_t{1} << 20;

__global__ void copy_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

class Copy : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kN}};
    w.bytes = 2.0 * kN * sizeof(float);
    w.items = kN;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("in", aisp::DType::f32, {kN});
    ctx.output("out", aisp::DType::f32, {kN});
  }
  void run(aisp::Context& ctx) override {
    copy_kernel<<<static_cast<unsigned>((kN + 255) / 256), 256, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), kN);
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace benchroot
