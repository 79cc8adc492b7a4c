// Honest control: a correct copy that is deliberately slow - a fixed grid of 16 blocks walks the array
// with a grid-stride loop, far too few threads to keep the memory system busy.
// Must pass every check; its verdict is SLOWER and its status failed_no_speedup, never invalid.
#include "validity_common.cuh"

namespace {

__global__ void few_threads_copy(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

}  // namespace

struct HonestSlower : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    few_threads_copy<<<16, 256, 0, ctx.stream()>>>(validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity control: correct but slow grid-stride copy"; }
};

AISP_BENCHMARK(HonestSlower)
