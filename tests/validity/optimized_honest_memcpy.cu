// Honest control: run() is a single device-to-device cudaMemcpyAsync on ctx.stream() - no kernel at all.
// The audit must count a memcpy as run()'s GPU work inside the window, like a kernel.
// Must pass every check.
#include "validity_common.cuh"

struct HonestMemcpy : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(cudaMemcpyAsync(validity::out_ptr(ctx), validity::in_ptr(ctx), fixture::kN * sizeof(float),
                                    cudaMemcpyDeviceToDevice, ctx.stream()));
  }
  std::string technique() const override { return "validity control: cudaMemcpyAsync device-to-device"; }
};

AISP_BENCHMARK(HonestMemcpy)
