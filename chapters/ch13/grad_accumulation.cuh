// grad_accumulation: gradient accumulation over `micro` = 8 micro-batches. Each micro-batch's backward
// leaves its gradient in BF16 (g_i, 16 Mi elements); the optimizer wants the FP32 sum
//   acc = acc_in + g_0 + g_1 + ... + g_7      (FP32 adds, in this order)
// over a 64 MiB FP32 accumulator acc_in that carries earlier steps' sum. The micro-batch gradients arrive
// one after another (each after its own backward), so both variants process them one micro-batch at a
// time, as a training loop must.
//
//   baseline_grad_accumulation.cu    per micro-batch: cast g_i to an FP32 temporary, then acc += temporary
//   optimized_grad_accumulation.cu   per micro-batch: one kernel reading BF16 and adding into FP32 (fused cast)
//
// The same FP32 additions happen in the same order (a BF16 -> FP32 cast is exact), so the outputs are
// bit-identical and the default fp32 tolerance applies.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kAccumN = int64_t{1} << 24;
inline constexpr int64_t kAccumMicro = 8;

inline unsigned accum_blocks(int64_t n) { return static_cast<unsigned>((n / 8 + 255) / 256); }

class GradAccumulationBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kAccumN}, {"micro", kAccumMicro}};
    w.precision = aisp::DType::f32;
    // Minimum traffic: every BF16 gradient read once, acc_in read once, acc written once (what a kernel
    // summing all micro-batches at once would move); both variants move more, micro-batch by micro-batch.
    w.bytes = double(kAccumN) * (kAccumMicro * 2.0 + 4.0 + 4.0);
    w.flops = double(kAccumN) * kAccumMicro;
    w.items = double(kAccumN) * kAccumMicro;
    w.item_unit = "gradient elements";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n"), micro = ctx.param("micro");
    ctx.input("grads", aisp::DType::bf16, {micro, n});
    ctx.input("acc_in", aisp::DType::f32, {n});
    ctx.output("acc", aisp::DType::f32, {n});
  }

 protected:
  static const __nv_bfloat16* grad(aisp::Context& ctx, int64_t i) {
    return ctx.buffer("grads").as<const __nv_bfloat16>() + i * ctx.param("n");
  }
};
