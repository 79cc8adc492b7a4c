// Cheat: writes the same constant to every output element - fast, every element "written" (the poison
// check K1 passes), but no relation to the inputs.
// Real-world exploit: a kernel that skips the computation (or an early-out that is always taken) and
// fills the output with a plausible value.
// Caught by: K2 (full element-wise comparison with the baseline's output).
#include "validity_common.cuh"

namespace {

__global__ void fill_constant(float* __restrict__ out, int64_t n, float value) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

}  // namespace

struct ConstantOutput : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    fill_constant<<<validity::blocks_for(fixture::kN), 256, 0, ctx.stream()>>>(validity::out_ptr(ctx), fixture::kN, 0.5f);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: constant output"; }
};

AISP_BENCHMARK(ConstantOutput)
