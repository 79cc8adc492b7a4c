// ch13 mixed_precision_linear, optimized: BF16 autocast of the training step, FP32 accumulation.
//
// Technique: mixed precision (torch.autocast(bfloat16)): X, dY and the FP32 master weight W are cast to
// BF16 in run() (W every step: the optimizer changes it every step), the three GEMMs run on BF16 tensor
// cores with FP32 accumulation and write FP32 outputs, the master weight stays FP32.
// Why it is faster: ~990 TFLOP/s of dense BF16 tensor-core math against ~67 TFLOP/s of FP32 FMA; the casts
// move 320 MiB of FP32 -> 160 MiB of BF16 (~0.17 ms).
// Expected on Hopper: ~1.1-1.3 ms of GEMMs + casts: ~12-14x.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 1.230 ms, 13.0x [12.8, 13.2] (670 TFLOP/s with
// the casts); max |diff| vs FP32 0.358 (atol 0.56).
#include "low_precision_cast.cuh"
#include "mixed_precision_linear.cuh"

namespace {

class OptimizedMixedPrecisionLinear : public MixedPrecisionLinearBase {
 public:
  void run(aisp::Context& ctx) override {
    cast(ctx, "x", x16_);
    cast(ctx, "dy", dy16_);
    cast(ctx, "w", w16_);
    linear_step(ctx, x16_, dy16_, w16_, CUDA_R_16BF);
  }
  std::string technique() const override { return "BF16 autocast (casts in run), FP32 accumulate and outputs"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    x16_ = half_copy(ctx, "x");
    dy16_ = half_copy(ctx, "dy");
    w16_ = half_copy(ctx, "w");
  }

 private:
  static __nv_bfloat16* half_copy(aisp::Context& ctx, const char* name) {
    return static_cast<__nv_bfloat16*>(ctx.scratch(std::string(name) + "_bf16", ctx.buffer(name).count() * 2));
  }
  static void cast(aisp::Context& ctx, const char* name, __nv_bfloat16* out) {
    const int64_t n = ctx.buffer(name).count();
    cast_f32_to_bf16<<<cast_blocks(n), 256, 0, ctx.stream()>>>(ctx.buffer(name).as<const float>(), out, n);
    AISP_LAUNCH_CHECK();
  }

  __nv_bfloat16 *x16_ = nullptr, *dy16_ = nullptr, *w16_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedMixedPrecisionLinear)
