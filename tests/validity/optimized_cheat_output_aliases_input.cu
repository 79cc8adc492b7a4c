// Cheat: uses the input buffer as its workspace - scales the input in place (x *= 2), then writes the
// output from there (y = x * 0.5). Both steps are exact in fp32, so the output equals the baseline's, but
// after run() the input holds other values: a second run() (every timed sample) would compute on them.
// Real-world exploit: in-place computation into a buffer the caller owns (outputs aliasing inputs), which
// saves an allocation and traffic, and makes repeated calls operate on already-transformed data.
// Caught by: K4 (device fingerprint of every input before/after run()).
#include "validity_common.cuh"

namespace {

__global__ void scale_in_place(float* __restrict__ x, int64_t n, float s) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void scaled_copy(const float* __restrict__ x, float* __restrict__ y, int64_t n, float s) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * s;
}

}  // namespace

struct OutputAliasesInput : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    float* in = ctx.buffer("in").as<float>();
    const unsigned grid = validity::blocks_for(fixture::kN);
    scale_in_place<<<grid, 256, 0, ctx.stream()>>>(in, fixture::kN, 2.0f);
    AISP_LAUNCH_CHECK();
    scaled_copy<<<grid, 256, 0, ctx.stream()>>>(in, validity::out_ptr(ctx), fixture::kN, 0.5f);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: computes in place in its input"; }
};

AISP_BENCHMARK(OutputAliasesInput)
