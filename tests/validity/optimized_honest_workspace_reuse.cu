// Honest control: stages the copy through a scratch workspace allocated once in setup() and reused on
// every call (in -> workspace -> out, two kernels on ctx.stream()). Scratch is workspace, never a cache:
// nothing in it survives from one call to the next that the output depends on.
// Must pass every check.
#include "validity_common.cuh"

struct HonestWorkspaceReuse : fixture::HonestCopy {
  float* workspace = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    workspace = static_cast<float*>(ctx.scratch("workspace", fixture::kN * sizeof(float)));
  }
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(validity::copy_async(ctx.stream(), validity::in_ptr(ctx), workspace, fixture::kN));
    AISP_CUDA_CHECK(validity::copy_async(ctx.stream(), workspace, validity::out_ptr(ctx), fixture::kN));
  }
  std::string technique() const override { return "validity control: copy staged through a reused workspace"; }
};

AISP_BENCHMARK(HonestWorkspaceReuse)
