// Cheat: changes a device-wide limit inside run() and leaves it changed - every call toggles
// cudaLimitMallocHeapSize between its value at setup and that value + 8 MiB - then does the honest copy.
// Real-world exploit: run() reconfiguring the process or device (heap/stack limits, cache config, flags)
// so that later work - the next sample, the other variant in a shared process - runs under other settings.
// Caught by: K16 (process state: device limits compared before/after run()), K9 (audit: cudaDeviceSetLimit
// called from run()). The call is skipped while the harness captures run() into a graph (K10), so that
// capture succeeds and the cheat is judged on the checks above.
#include "validity_common.cuh"

struct DeviceLimit : fixture::HonestCopy {
  size_t heap_at_setup = 0;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaDeviceGetLimit(&heap_at_setup, cudaLimitMallocHeapSize));
  }
  void run(aisp::Context& ctx) override {
    if (!validity::capturing(ctx.stream())) {
      size_t current = 0;
      AISP_CUDA_CHECK(cudaDeviceGetLimit(&current, cudaLimitMallocHeapSize));
      const size_t next = current == heap_at_setup ? heap_at_setup + (size_t{8} << 20) : heap_at_setup;
      AISP_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, next));
    }
    fixture::launch_copy(ctx, fixture::kN);
  }
  std::string technique() const override { return "validity cheat: device malloc-heap limit changed in run()"; }
};

AISP_BENCHMARK(DeviceLimit)
