// Cheat: c = a, dropping the small term 1e-6 b whose effect (up to 16 fp32 ulps) sits inside the fp32
// tolerance, so the element-wise comparison passes and one input read is saved.
// Real-world exploit: dropping a bias, residual or scale whose contribution hides under the tolerance.
// Caught by: K5 (b refilled alone changes every baseline output bit pattern and none of the variant's).
#include "validity_common.cuh"

namespace {
__global__ void copy_a(const float* __restrict__ a, float* __restrict__ c, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
}  // namespace

struct IgnoresInput : validity::AddSmall {
  void run(aisp::Context& ctx) override {
    copy_a<<<validity::blocks_for(validity::kAdd), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(),
                                                                          ctx.buffer("c").as<float>(), validity::kAdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: a + 1e-6 b computed as a"; }
};

AISP_BENCHMARK(IgnoresInput)
