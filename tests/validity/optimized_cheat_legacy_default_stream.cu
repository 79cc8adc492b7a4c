// Cheat: launches the copy on the legacy default stream ("stream 0") instead of ctx.stream(). The harness
// stream is created non-blocking, so the legacy stream is not implicitly ordered with it: the copy runs
// whenever it likes, outside the events. (cudaStreamLegacy is spelled out so the cheat does not depend on
// --default-stream per-thread; without that flag it is exactly what `<<<g, b, 0, 0>>>` means.)
// Real-world exploit: forgetting (or "forgetting") to pass the stream, relying on default-stream
// semantics that only serialize with blocking streams.
// Caught by: K8 (audit: the kernel runs before/after the timed window, on another stream), K6 (drain residual).
#include "validity_common.cuh"

struct LegacyDefaultStream : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(validity::copy_async(cudaStreamLegacy, validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN));
  }
  std::string technique() const override { return "validity cheat: copy on the legacy default stream"; }
};

AISP_BENCHMARK(LegacyDefaultStream)
