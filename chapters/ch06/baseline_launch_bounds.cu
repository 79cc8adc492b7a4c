// ch06 launch_bounds, baseline: the kernel compiled without __launch_bounds__.
//
// Technique: none - ptxas may use up to 255 registers per thread and allocates for the worst path.
// Why it is slow: the rare fallback needs 157 registers (ptxas -v, nvcc 13.0, sm_90a). An SM has 65536
// registers, so 157 x 256 = 40192 per block allows ONE 256-thread block per SM:
// cudaOccupancyMaxActiveBlocksPerMultiprocessor returns 1, 8 warps of the 64 an SM can hold (12.5%
// occupancy). The common path needs ~15 of those registers; the rest sit idle. The loop has one 4-byte
// load in flight per thread, so the whole GPU has 132 x 256 x 4 B = 135 KB in flight - Little's law
// (bandwidth = bytes in flight / latency, ~0.6 us under load) caps HBM traffic near 0.2 TB/s of reads.
// Expected on Hopper: ~0.4-0.6 TB/s read + write, ~0.25-0.3 ms for the 128 MiB (measured: 236 us).
#include "launch_bounds.cuh"

namespace {

__global__ void squash_unbounded_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  launch_bounds_body(x, y, n);
}

class BaselineLaunchBounds : public LaunchBoundsBase {
 public:
  void setup(aisp::Context& ctx) override {
    LaunchBoundsBase::setup(ctx);
    blocks_ = launch_bounds_wave(squash_unbounded_kernel, ctx.device().sm_count);
  }

  void run(aisp::Context& ctx) override {
    squash_unbounded_kernel<<<blocks_, kLaunchBoundsThreads, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(),
                                                                                ctx.buffer("y").as<float>(),
                                                                                ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "no launch bounds: 157 regs, 1 block (8 warps) per SM"; }

 private:
  unsigned blocks_ = 0;
};

}  // namespace

AISP_BENCHMARK(BaselineLaunchBounds)
