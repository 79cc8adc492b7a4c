// ch14 template_specialization, baseline: one softmax kernel for every row length.
//
// Technique: none; a generic kernel with the row length as an argument. It cannot keep a row in registers
// (a per-thread array needs a compile-time size), so it makes an online pass (running max and rescaled
// sum) and a second pass that reads the row again to write the outputs.
// Why it is slower: the second read of each 4 KiB row mostly misses L1 (64 resident warps x 4 KiB >
// L1) and comes from L2: ~1.5x the traffic of one pass through the memory hierarchy.
// Expected on Hopper: ~240-300 us (512 MiB of HBM traffic plus 256 MiB of L2 re-reads).
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 258.7 us.
#include "template_specialization.cuh"

namespace {

__global__ void softmax_generic_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int cols) {
  const int64_t row = blockIdx.x * int64_t(kSoftmaxWarpsPerBlock) + threadIdx.x / 32;
  if (row < rows) softmax_row_generic(x + row * cols, y + row * cols, cols);
}

class BaselineTemplateSpecialization : public TemplateSpecializationBase {
 public:
  void run(aisp::Context& ctx) override {
    softmax_generic_kernel<<<softmax_blocks(ctx), 32 * kSoftmaxWarpsPerBlock, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(), ctx.param("rows"),
        static_cast<int>(ctx.param("cols")));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "generic softmax: runtime row length, online pass + second read"; }
};

}  // namespace

AISP_BENCHMARK(BaselineTemplateSpecialization)
