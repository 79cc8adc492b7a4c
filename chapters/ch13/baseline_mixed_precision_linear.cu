// ch13 mixed_precision_linear, baseline: the Linear layer's training step in FP32.
//
// Technique: none; FP32 training. Three cuBLAS GEMMs on FP32 operands with FP32 compute; with TF32 off
// (the harness pins the math mode) they run on the CUDA cores' FMA pipes, ~67 TFLOP/s peak on H100 SXM.
// Expected on Hopper: 824 GFLOP at ~50 TFLOP/s: ~16-17 ms.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 15.995 ms (51.5 TFLOP/s).
#include "mixed_precision_linear.cuh"

namespace {

class BaselineMixedPrecisionLinear : public MixedPrecisionLinearBase {
 public:
  void run(aisp::Context& ctx) override {
    linear_step(ctx, ctx.buffer("x").data, ctx.buffer("dy").data, ctx.buffer("w").data, CUDA_R_32F);
  }
  std::string technique() const override { return "FP32 forward + backward GEMMs (no TF32)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineMixedPrecisionLinear)
