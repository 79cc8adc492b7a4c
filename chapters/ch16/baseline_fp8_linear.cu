// ch16 fp8_linear, baseline: the Linear layer in BF16 (fp8_linear.cuh): cuBLASLt, BF16 operands, FP32
// accumulate, BF16 output - what a BF16 serving engine runs. Hopper's dense BF16 peak is ~989 TFLOP/s;
// cuBLASLt reaches ~700 at this shape. Expected on H100: ~0.7 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 589.2 us (817 TFLOP/s).
#include "fp8_linear.cuh"

namespace {

class BaselineFp8Linear : public Fp8LinearBase {
 public:
  void run(aisp::Context& ctx) override {
    gemm_.run(ctx.stream(), ctx.buffer("x").data, ctx.buffer("w").data, ctx.buffer("y").data);
  }
  std::string technique() const override { return "BF16 GEMM (cuBLASLt, FP32 accumulate, BF16 out)"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    gemm_.plan(ctx.param("m"), ctx.param("n"), ctx.param("k"), {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F}, workspace_,
               kFp8LinearWorkspace);
  }
};

}  // namespace

AISP_BENCHMARK(BaselineFp8Linear)
