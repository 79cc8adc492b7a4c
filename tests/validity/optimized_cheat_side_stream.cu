// Cheat: the copy runs on a private non-blocking stream created in setup() and is never joined back to
// ctx.stream(), so the harness's events bracket an empty stream and the "time" is launch overhead.
// Real-world exploit: "my kernel uses its own stream" - work on a side stream the timer never waits for
// (checked runs still pass, because the check waits for the whole device).
// Caught by: K8 (audit: run()'s kernel runs outside the timed window), K6 (drain residual after the
// window), K10 (the captured graph of run() is empty, so its replay writes nothing).
#include "validity_common.cuh"

struct SideStream : fixture::HonestCopy {
  cudaStream_t side = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  }
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(validity::copy_async(side, validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN));
  }
  void teardown(aisp::Context&) override {
    cudaStreamSynchronize(side);
    cudaStreamDestroy(side);
  }
  std::string technique() const override { return "validity cheat: copy on an unjoined side stream"; }
};

AISP_BENCHMARK(SideStream)
