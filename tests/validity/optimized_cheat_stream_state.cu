// Cheat: asks whether the harness stream is busy when run() starts. A cold timed sample queues run()
// behind the harness's blocking kernel (so launch overhead stays out of the window): the stream is busy.
// Checked runs start on an idle stream. Busy: an eighth of the copy; idle: the full copy.
// Real-world exploit: reading API state to tell a timed sample from a checked run.
// Caught by: K21 (every timed sample verified).
#include "validity_common.cuh"

struct StreamState : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    cudaError_t busy = cudaStreamQuery(ctx.stream());
    if (busy == cudaErrorNotReady) {
      cudaGetLastError();
      validity::copy_eighth(ctx);
    } else {
      fixture::launch_copy(ctx, fixture::kN);
    }
  }
  std::string technique() const override { return "validity cheat: less work when the stream is busy"; }
};

AISP_BENCHMARK(StreamState)
