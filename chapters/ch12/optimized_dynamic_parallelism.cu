// ch12 dynamic_parallelism, optimized: device-side launch (CUDA dynamic parallelism): a block whose
// segment splits launches a 2-block grid for its two halves itself, from the GPU.
//
// Technique: CDP2 fire-and-forget launches (`<<<2, 256, 0, cudaStreamFireAndForget>>>` in device code).
// The host launches the root grid once; the recursion unfolds on the GPU, each subtree as soon as its
// parent has decided, with no level barrier. A parent grid counts as complete only when all the grids it
// launched are, so everything is ordered before the harness's stop event on the harness stream.
// Built with relocatable device code and the device runtime (CMakeLists.txt of this folder).
// Why it is faster: no host round trip per level; a device-side launch costs a few us of GPU front-end
// time, and independent subtrees proceed concurrently instead of waiting for the whole level.
// Expected on Hopper: ~10 levels x ~3-6 us = ~50-80 us, 3-4x over the host-driven levels.
#include "dynamic_parallelism.cuh"

namespace {

// Block b of this grid refines [lo_base + b len, ... + len).
__global__ void __launch_bounds__(kRefineThreads) refine_device(const float* __restrict__ x, float* __restrict__ y,
                                                                int* __restrict__ depth_out, int64_t lo_base,
                                                                int64_t len, int depth) {
  const int64_t lo = lo_base + blockIdx.x * len;
  if (refine_segment(x, y, depth_out, lo, len, depth) && threadIdx.x == 0)
    refine_device<<<2, kRefineThreads, 0, cudaStreamFireAndForget>>>(x, y, depth_out, lo, len / 2, depth + 1);
}

class OptimizedDynamicParallelism : public DynamicParallelismBase {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open(s);
    refine_device<<<1, kRefineThreads, 0, s>>>(ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                               ctx.buffer("depth").as<int>(), 0, ctx.param("n"), 0);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "device-side launch: each split segment launches its children"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedDynamicParallelism)
