// ch13 gemm_precision, baseline: FP32 GEMM (cuBLASLt, FP32 operands, CUBLAS_COMPUTE_32F: no TF32).
//
// Technique: none; the Linear layer in full precision. FP32 GEMMs on Hopper run on the CUDA cores' FMA
// pipes (TF32 is off, as the harness pins it): 128 FP32 FMA per SM per clock, ~67 TFLOP/s at 1.98 GHz.
// Expected on Hopper: ~50-60 TFLOP/s: ~20 ms at 8192^3.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 21.49 ms (51.2 TFLOP/s).
#include "gemm_precision.cuh"

namespace {

class BaselineGemmPrecision : public GemmPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    gemm_.run(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ctx.buffer("c").data);
  }
  std::string technique() const override { return "FP32 GEMM (cuBLASLt, FP32 compute, no TF32)"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    gemm_.plan(ctx.param("m"), ctx.param("n"), ctx.param("k"), {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F},
               workspace_, kLtWorkspaceBytes);
  }
};

}  // namespace

AISP_BENCHMARK(BaselineGemmPrecision)
