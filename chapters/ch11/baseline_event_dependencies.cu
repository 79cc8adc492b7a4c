// ch11 event_dependencies, baseline: after every stage, cudaDeviceSynchronize before launching the next.
//
// Technique: the blunt way to honour a cross-stream dependency: wait on the host until the whole device is
// idle, then issue the next stage.
// Why it is slow: every stage pays a full host/GPU round trip: the GPU drains and idles while the host
// wakes from the synchronize (~5-15 us in a VM) and issues the next two launches (~2 x 3 us before the
// first block runs). With ~8-16 us of kernels per stage, the GPU is idle for a third or more of the time.
// Expected on Hopper: 24 stages x ~20-25 us = ~0.5-0.6 ms on an H100 VM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 526.9 us (median).
#include "event_dependencies.cuh"

namespace {

class BaselineEventDependencies : public EventDependenciesBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open_eager(ctx.stream(), "event_dependencies (device-wide syncs)");
    for (int64_t k = 1; k <= ctx.param("stages"); ++k) {
      stage(ctx, k, ctx.stream(), side_);
      AISP_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  std::string technique() const override { return "cudaDeviceSynchronize between stages"; }
};

}  // namespace

AISP_BENCHMARK(BaselineEventDependencies)
