// Validity baseline: copy of n = 2^20 + 3 floats (a size that is not a multiple of the vector width),
// bounds-checked per element.
#include "validity_common.cuh"

namespace validity {
inline constexpr int64_t kOdd = (int64_t{1} << 20) + 3;
}

namespace {
__global__ void copy_checked(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
}  // namespace

struct OddCopy : aisp::Benchmark {
  aisp::Workload workload() const override {
    aisp::Workload w = fixture::copy_workload();
    w.params = {{"n", validity::kOdd}};
    w.bytes = 2.0 * validity::kOdd * sizeof(float);
    w.items = validity::kOdd;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("in", aisp::DType::f32, {validity::kOdd});
    ctx.output("out", aisp::DType::f32, {validity::kOdd});
  }
  void run(aisp::Context& ctx) override {
    copy_checked<<<validity::blocks_for(validity::kOdd), 256, 0, ctx.stream()>>>(
        validity::in_ptr(ctx), validity::out_ptr(ctx), validity::kOdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity: bounds-checked copy of 2^20 + 3 floats"; }
};

AISP_BENCHMARK(OddCopy)
