// ch12 kernel_fusion, baseline: the 200-link chain as 200 kernel launches (the same baseline as
// cuda_graphs: launch_chain.cuh).
//
// Technique: one kernel per elementwise step, each reading y from memory and writing it back.
// Why it is slow: launch-bound: ~2-4 us of host issue and ~1-2 us of GPU launch gap per link around ~1 us of
// work, plus 200 round trips of the 16 KiB vector through L2.
// Expected on Hopper: ~0.5-0.8 ms on an H100 VM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.218 ms (median).
#include "launch_chain.cuh"

namespace {

class BaselineKernelFusion : public LaunchChainBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    launch_all(ctx, ctx.stream());
  }
  std::string technique() const override { return "200 elementwise kernels, one launch each"; }
};

}  // namespace

AISP_BENCHMARK(BaselineKernelFusion)
