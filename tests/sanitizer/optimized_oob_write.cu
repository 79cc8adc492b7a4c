// Sanitizer fixture: the same copy, but one extra thread writes one float past the end of `out` - the
// planted out-of-bounds write. Every element of `out` is still right, so the harness's output checks pass
// and the run is usually fast and "valid"; only memcheck sees it. `aisp profile sanitizer` must report an
// "Invalid __global__ write of size 4 bytes" in oob_write_kernel and exit 3 (tests/gpu/test_profile.cpp).
#include "fixtures/fixture_copy.cuh"

namespace {

__global__ void oob_write_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
  else if (i == n) out[i] = 0.0f;  // the planted bug: out[n] is one element past the buffer
}

}  // namespace

struct OobWrite : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    // n / 256 + 1 blocks: exactly one thread more than a multiple of 256 covers index n.
    oob_write_kernel<<<static_cast<unsigned>(n / 256 + 1), 256, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "fixture: copy plus one store past the end of out"; }
};

AISP_BENCHMARK(OobWrite)
