// ch12 cuda_graphs, baseline: the 200-link chain as 200 kernel launches on the harness stream.
//
// Technique: a host loop of <<<>>> launches, the way eager frameworks issue an inference step's tail.
// Why it is slow: every launch costs the host ~2-4 us in the driver (argument marshalling, a doorbell
// write per launch) and the GPU ~1-2 us between dependent kernels; each link has ~1 us of real work, so the
// host's issue rate sets the pace and the SMs idle most of the time.
// Expected on Hopper: ~200 x 2.5-4 us = ~0.5-0.8 ms on an H100 VM (host-bound).
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.116 ms (median).
#include "launch_chain.cuh"

namespace {

class BaselineCudaGraphs : public LaunchChainBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    launch_all(ctx, ctx.stream());
  }
  std::string technique() const override { return "200 kernel launches from a host loop"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCudaGraphs)
