// Cheat: run() only hands the work to a std::thread started in setup(); that thread launches the copy on
// its own stream and run() returns as soon as the launch is queued (so checked runs, which wait for the
// whole device afterwards, still see a complete output). The timed stream never carries the work.
// Real-world exploit: "async engine" designs where a worker thread submits the GPU work, so the caller's
// stream/timer measures only the hand-off.
// Caught by: K9 (audit: CUDA calls from a thread other than the harness thread), K8 (the kernel was
// launched by another thread, outside any timed window), K16 (process state: extra thread).
#include <condition_variable>
#include <mutex>
#include <thread>

#include "validity_common.cuh"

struct BackgroundThread : fixture::HonestCopy {
  std::thread helper;
  std::mutex m;
  std::condition_variable cv;
  int requested = 0, launched = 0, device = 0;
  bool quit = false;
  cudaError_t error = cudaSuccess;  // the helper thread must not throw; run() reports its errors
  cudaStream_t own = nullptr;
  const float* in = nullptr;
  float* out = nullptr;

  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    in = validity::in_ptr(ctx);
    out = validity::out_ptr(ctx);
    AISP_CUDA_CHECK(cudaGetDevice(&device));
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    helper = std::thread([this] { serve(); });
  }
  void serve() {
    cudaError_t err = cudaSetDevice(device);
    std::unique_lock<std::mutex> lock(m);
    for (;;) {
      cv.wait(lock, [&] { return quit || requested > launched; });
      if (quit) return;
      if (err == cudaSuccess) err = validity::copy_async(own, in, out, fixture::kN);
      error = err;
      launched = requested;
      cv.notify_all();
    }
  }
  void run(aisp::Context&) override {
    std::unique_lock<std::mutex> lock(m);
    ++requested;
    cv.notify_all();
    cv.wait(lock, [&] { return launched == requested; });  // queued, not finished
    AISP_CUDA_CHECK(error);
  }
  void stop() {
    if (!helper.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(m);
      quit = true;
    }
    cv.notify_all();
    helper.join();
  }
  void teardown(aisp::Context&) override {
    stop();
    cudaStreamSynchronize(own);
    cudaStreamDestroy(own);
  }
  ~BackgroundThread() override { stop(); }  // the worker may exit without teardown
  std::string technique() const override { return "validity cheat: copy launched by a background thread"; }
};

AISP_BENCHMARK(BackgroundThread)
