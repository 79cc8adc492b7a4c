// ch11 stream_ordered, baseline: cudaMalloc and cudaFree of the 16 MiB temporary in every step.
//
// Technique: the naive allocator pattern: allocate right before use, free right after.
// Why it is slow: cudaMalloc is a driver call that reserves and maps device pages (tens of us for 16 MiB),
// and cudaFree synchronizes the whole device before it unmaps: the host stalls until step s's kernels
// finish, so the GPU then idles while the host frees, allocates and launches step s+1. Each step costs
// allocation + free + a full host/GPU round trip on top of its ~30 us of kernels.
// Expected on Hopper: ~80-150 us per step on an H100 VM, ~0.7-1.2 ms for the 8 steps.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 925.0 us (median).
#include "stream_ordered.cuh"

namespace {

class BaselineStreamOrdered : public StreamOrderedBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open_eager(ctx.stream(), "stream_ordered (cudaMalloc/cudaFree)");
    const size_t bytes = ctx.param("n") * sizeof(float);
    for (int64_t s = 0; s < ctx.param("steps"); ++s) {
      float* tmp = nullptr;
      AISP_CUDA_CHECK(cudaMalloc(&tmp, bytes));
      step(ctx, tmp, s);
      AISP_CUDA_CHECK(cudaFree(tmp));
    }
  }
  std::string technique() const override { return "cudaMalloc + cudaFree of the temporary every step"; }
};

}  // namespace

AISP_BENCHMARK(BaselineStreamOrdered)
