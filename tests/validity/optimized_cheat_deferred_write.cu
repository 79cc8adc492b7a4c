// Cheat: run() launches, on a side stream that is never joined, a kernel that first idles ~200 us (on the
// globaltimer) and only then writes the output. When run() returns and the stop event passes, the output
// still holds old values; the real writes land after the window. Checked runs wait for the device, so
// they pass.
// Real-world exploit: work (or its tail, e.g. a write-back/epilogue kernel) deferred past the point the
// timer stops, hoping nobody looks at the output at that moment.
// Caught by: K11 (output fingerprint right after the window differs from the one after device quiescence),
// K8 (audit: run()'s kernel ends after the window), K6 (drain residual).
#include "validity_common.cuh"

namespace {

constexpr unsigned long long kDelayNs = 200'000ull;

// A grid small enough to be resident at once, so the whole copy waits ~kDelayNs, not one wave after another.
__global__ void late_copy(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const unsigned long long t0 = validity::globaltimer_ns();
  while (validity::globaltimer_ns() - t0 < kDelayNs) {
  }
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

}  // namespace

struct DeferredWrite : fixture::HonestCopy {
  cudaStream_t side = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  }
  void run(aisp::Context& ctx) override {
    late_copy<<<64, 256, 0, side>>>(validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
  }
  void teardown(aisp::Context&) override {
    cudaStreamSynchronize(side);
    cudaStreamDestroy(side);
  }
  std::string technique() const override { return "validity cheat: output written ~200 us after run() returns"; }
};

AISP_BENCHMARK(DeferredWrite)
