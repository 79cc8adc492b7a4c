// Cheat: c = 2a, never reading b. When every input was filled from the same seed, a and b (one shape,
// one fill) held identical values and this passed verification as a 1.31x FASTER add.
// Real-world exploit: a kernel specialised to the harness's input generator instead of the operation.
// Caught by: K2 (each input now has its own random stream, seed mixed with the buffer name, so a != b).
#include "validity_common.cuh"

namespace {
__global__ void twice(const float* __restrict__ a, float* __restrict__ c, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 2.f * a[i];
}
}  // namespace

struct IdenticalInputs : validity::AddSmall {
  void run(aisp::Context& ctx) override {
    twice<<<validity::blocks_for(validity::kAdd), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(),
                                                                         ctx.buffer("c").as<float>(), validity::kAdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: a + b computed as 2a"; }
};

AISP_BENCHMARK(IdenticalInputs)
