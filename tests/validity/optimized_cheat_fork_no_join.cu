// Cheat: forks correctly (event recorded on ctx.stream(), the side stream waits on it) but never joins:
// no event from the side stream is waited on by ctx.stream(), so the stop event can pass before the copy ends.
// Real-world exploit: half of the fork/join pattern - "the side stream starts after my inputs are ready,
// so it is ordered" - while the timer only waits for the harness stream.
// Caught by: K8 (audit: run()'s kernel ends after the timed window closed), K10 (capture of run() fails:
// the side stream is never joined to the origin stream), K6 (drain residual).
#include "validity_common.cuh"

struct ForkNoJoin : fixture::HonestCopy {
  cudaStream_t side = nullptr;
  cudaEvent_t fork = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    AISP_CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  }
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(cudaEventRecord(fork, ctx.stream()));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    AISP_CUDA_CHECK(validity::copy_async(side, validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN));
    // (missing: record an event on `side` and make ctx.stream() wait on it)
  }
  void teardown(aisp::Context&) override {
    cudaStreamSynchronize(side);
    cudaEventDestroy(fork);
    cudaStreamDestroy(side);
  }
  std::string technique() const override { return "validity cheat: fork to a side stream, no join"; }
};

AISP_BENCHMARK(ForkNoJoin)
