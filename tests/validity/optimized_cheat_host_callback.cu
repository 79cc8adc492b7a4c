// Cheat: run() enqueues only a host function on ctx.stream(). Host functions may not call CUDA, so it
// wakes a helper thread (started in setup) and returns at once; the helper then launches the copy on its
// own stream. The GPU work is issued by a thread, on a stream and at a time the harness never sees.
// (An earlier version whose host function waited for the helper's copy to finish hung a checked run on an
// H100 until the worker was killed, so the host function only hands off and never blocks.)
// Real-world exploit: cudaLaunchHostFunc / stream callbacks used to smuggle work (or a host-side
// "compute") past the stream the timer records, e.g. triggering an external engine from a callback.
// Caught by: K9 (audit: cudaLaunchHostFunc in run(); CUDA calls from another thread), K8 (the kernel was
// launched by another thread, outside any timed window). Checked runs may also see an unfinished output
// (K1/K2): the device-wide drain can end before the helper has launched anything.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "validity_common.cuh"

struct HostCallback : fixture::HonestCopy {
  std::thread helper;
  std::mutex m;
  std::condition_variable cv;
  int requested = 0, done = 0, device = 0;
  bool quit = false;
  cudaError_t error = cudaSuccess;
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
  // The helper: one launch per request, on its own stream.
  void serve() {
    cudaError_t err = cudaSetDevice(device);
    std::unique_lock<std::mutex> lock(m);
    for (;;) {
      cv.wait(lock, [&] { return quit || requested > done; });
      if (quit) return;
      done = requested;
      lock.unlock();
      if (err == cudaSuccess) err = validity::copy_async(own, in, out, fixture::kN);
      lock.lock();
      error = err;
    }
  }
  // Runs on CUDA's callback thread when ctx.stream() reaches it: no CUDA calls, no waiting, only the hand-off.
  static void CUDART_CB on_stream(void* self) {
    auto* me = static_cast<HostCallback*>(self);
    std::lock_guard<std::mutex> lock(me->m);
    ++me->requested;
    me->cv.notify_all();
  }
  void run(aisp::Context& ctx) override {
    {
      std::lock_guard<std::mutex> lock(m);
      AISP_CUDA_CHECK(error);  // an error of an earlier hand-off
    }
    AISP_CUDA_CHECK(cudaLaunchHostFunc(ctx.stream(), on_stream, this));
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
  void teardown(aisp::Context& ctx) override {
    cudaStreamSynchronize(ctx.stream());  // every pending host function has handed off
    stop();
    cudaStreamSynchronize(own);
    cudaStreamDestroy(own);
  }
  ~HostCallback() override { stop(); }
  std::string technique() const override { return "validity cheat: host callback triggers work on another thread"; }
};

AISP_BENCHMARK(HostCallback)
