// ch12 programmatic_dependent_launch, baseline: the 64 layer kernels launched in plain stream order.
//
// Technique: ordinary launches: layer l+1 may not start until layer l has fully completed and flushed.
// Why it is slow: for small kernels the gap between dependent kernels is a large share of the time: the
// next grid is launched only after the previous one drains (~1-2 us of launch latency on the GPU even with
// the launches already queued), then it still has to run its prologue before doing dependent work.
// Expected on Hopper: 64 x ~3-4 us = ~0.2-0.25 ms (the launches are queued ahead; host issue is not timed).
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 164.5 us (median).
#include "programmatic_dependent_launch.cuh"

namespace {

class BaselineProgrammaticDependentLaunch : public ProgrammaticDependentLaunchBase {
 public:
  void run(aisp::Context& ctx) override { launch_layers(ctx, false); }
  std::string technique() const override { return "64 dependent kernels in plain stream order"; }
};

}  // namespace

AISP_BENCHMARK(BaselineProgrammaticDependentLaunch)
