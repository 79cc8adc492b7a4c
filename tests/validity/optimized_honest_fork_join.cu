// Honest control: the documented fork/join pattern. An event recorded on ctx.stream() forks a side
// stream (created in setup), each stream copies one half, and an event recorded on the side stream is
// waited on by ctx.stream() before run() returns - so all work lies between the harness's events, and
// stream capture (K10) records a properly joined graph.
// Must pass every check (concurrency inside run() is fine when it is joined).
#include "validity_common.cuh"

struct HonestForkJoin : fixture::HonestCopy {
  cudaStream_t side = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    AISP_CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    AISP_CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    const float* in = validity::in_ptr(ctx);
    float* out = validity::out_ptr(ctx);
    const int64_t half = fixture::kN / 2;
    AISP_CUDA_CHECK(cudaEventRecord(fork, s));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    AISP_CUDA_CHECK(validity::copy_async(s, in, out, half));
    AISP_CUDA_CHECK(validity::copy_async(side, in + half, out + half, fixture::kN - half));
    AISP_CUDA_CHECK(cudaEventRecord(join, side));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(s, join, 0));
  }
  void teardown(aisp::Context&) override {
    cudaStreamSynchronize(side);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(side);
  }
  std::string technique() const override { return "validity control: fork/join over a side stream"; }
};

AISP_BENCHMARK(HonestForkJoin)
