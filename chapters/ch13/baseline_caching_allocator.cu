// ch13 caching_allocator, baseline: every temporary from cudaMalloc, all freed with cudaFree at the end.
//
// Technique: none; what a step costs when each activation is a fresh driver allocation. cudaMalloc of
// 8 MiB maps pages (tens of microseconds of host time), and cudaFree waits for the whole device to be idle
// before it unmaps, so the host cannot run ahead of the GPU: every step pays its allocation calls serially
// with its kernels. It cannot be captured into a CUDA graph (K10 is recorded as not applicable).
// Expected on Hopper: ~11 x (cudaMalloc + cudaFree) = 0.3-1 ms of host time against ~60 us of kernels.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 1.172 ms per step (noise 12%: host-bound).
#include "caching_allocator.cuh"

namespace {

class BaselineCachingAllocator : public CachingAllocatorBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open_eager(ctx.stream(), "ch13 caching_allocator baseline");
    const int layers = static_cast<int>(ctx.param("layers"));
    float* temporaries[kAllocLayers] = {};
    const float* in = ctx.buffer("x").as<const float>();
    for (int l = 0; l < layers; ++l) {
      float* out = ctx.buffer("y").as<float>();
      if (l + 1 < layers) {
        AISP_CUDA_CHECK(cudaMalloc(&temporaries[l], activation_bytes(ctx)));
        out = temporaries[l];
      }
      launch_layer(ctx, in, out, l);
      in = out;
    }
    for (int l = 0; l + 1 < layers; ++l) AISP_CUDA_CHECK(cudaFree(temporaries[l]));
  }
  std::string technique() const override { return "cudaMalloc/cudaFree per temporary (no allocator)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCachingAllocator)
