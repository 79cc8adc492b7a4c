// Validity baseline: c = a + b over two inputs of one shape and fill.
#include "validity_common.cuh"

namespace {
__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
}  // namespace

struct Add : validity::AddSmall {
  void run(aisp::Context& ctx) override {
    add<<<validity::blocks_for(validity::kAdd), 256, 0, ctx.stream()>>>(
        ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(), ctx.buffer("c").as<float>(), validity::kAdd);
    AISP_LAUNCH_CHECK();
  }
};

AISP_BENCHMARK(Add)
