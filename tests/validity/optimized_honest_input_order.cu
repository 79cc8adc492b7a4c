// Honest control: the same c = a + 1e-6 b, reading b before a, walking the elements from the end, with
// a fused multiply-add (rounds once instead of twice). Every input still matters to every output, so
// K5 must pass, and the fma's difference stays inside the fp32 tolerance (K2, K21).
#include "validity_common.cuh"

namespace {
__global__ void add_reversed(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t n) {
  const int64_t i = n - 1 - (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x);
  if (i < 0) return;
  const float bi = b[i];
  c[i] = fmaf(validity::kSmall, bi, a[i]);
}
}  // namespace

struct InputOrder : validity::AddSmall {
  void run(aisp::Context& ctx) override {
    add_reversed<<<validity::blocks_for(validity::kAdd), 256, 0, ctx.stream()>>>(
        ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(), ctx.buffer("c").as<float>(), validity::kAdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity control: inputs read in another order, fma"; }
};

AISP_BENCHMARK(InputOrder)
