// Honest control: run() copies on ctx.stream() and then waits for it on the host (cudaStreamSynchronize),
// as a pageable cudaMemcpy or a host-staged pipeline does. The harness must fall back to unblocked timing
// and K6 must not mistake the CUPTI audit's own flush after such a wait for deferred work (it did: exactly
// the audited samples drained for ~1.5 ms on the H100 and the chapter pairs that wait on the host were INVALID).
// Must pass every check.
#include "validity_common.cuh"

struct HonestHostSync : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    fixture::launch_copy(ctx, fixture::kN);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
  std::string technique() const override { return "validity control: copy, then a host wait on the harness stream"; }
};

AISP_BENCHMARK(HonestHostSync)
