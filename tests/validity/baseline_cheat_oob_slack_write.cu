// Validity baseline: copy of n = 2^20 + 3 floats (a size that is not a multiple of the vector width),
// bounds-checked per element.
#include "validity_common.cuh"

namespace {
__global__ void copy_checked(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
}  // namespace

struct OddCopy : validity::OddCopyBase {
  void run(aisp::Context& ctx) override {
    copy_checked<<<validity::blocks_for(validity::kOdd), 256, 0, ctx.stream()>>>(
        validity::in_ptr(ctx), validity::out_ptr(ctx), validity::kOdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity: bounds-checked copy of 2^20 + 3 floats"; }
};

AISP_BENCHMARK(OddCopy)
