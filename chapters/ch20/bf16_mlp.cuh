// bf16_mlp: a gated (SwiGLU) MLP with its residual, the FFN of Llama-class models:
//   y = x + (silu(x Wg^T) * (x Wu^T)) W2^T,  x [2048 tokens][4096], Wg, Wu [14336][4096], W2 [4096][14336]
// (Llama-3-8B's FFN shape), bf16 storage, fp32 accumulation, 0.72 TFLOP per call. 2048 tokens keep a
// call near 1 ms: the H100 run of 4096 tokens (2.2 ms of dense GEMM per call) had every sample flagged by
// NVML's power-cap reason and discarded.
//   baseline_bf16_mlp.cu   as two nn.Linear + an activation + an add: gate GEMM and up GEMM to HBM, a SwiGLU
//                          kernel, the down GEMM to HBM, a residual-add kernel (5 launches)
//   optimized_bf16_mlp.cu  fused epilogues: one GEMM over gate and up weights interleaved row by row
//                          (packed once in setup), whose epilogue gets gate and up for the same (token,
//                          feature) as one accumulator pair and writes silu(gate) * up; the down GEMM adds
//                          the residual in its epilogue (2 launches)
// Both run ch10's persistent warp-specialized wgmma GEMM (gemm_ws_kernel.cuh), so the difference is
// exactly the fusion: 2 x 59 MiB of gate/up written and read back, a 59 MiB h pass and a residual pass.
#pragma once
#include <cmath>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "block_kernels.cuh"

inline int64_t bf16_mlp_tokens() { return aisp::axis("tokens", 2048); }

class Bf16MlpBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t t = bf16_mlp_tokens(), d = 4096, f = 14336;
    aisp::Workload w;
    w.params = {{"tokens", t}, {"dim", d}, {"ffn", f}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * (3.0 * d * f + 2.0 * t * d);  // weights; x read, y written
    w.flops = 2.0 * t * d * f * 3;
    w.items = double(t);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    if (t % 128) throw std::runtime_error("bf16_mlp: tokens must be a multiple of 128");
    const auto wfill = [](int64_t fan_in) {
      const double a = std::sqrt(3.0 / static_cast<double>(fan_in));
      return aisp::Fill::uniform(-a, a);
    };
    ctx.input("x", aisp::DType::bf16, {t, d}, aisp::Fill::normal(0, 1));
    ctx.input("wg", aisp::DType::bf16, {f, d}, wfill(d), aisp::Role::static_);
    ctx.input("wu", aisp::DType::bf16, {f, d}, wfill(d), aisp::Role::static_);
    ctx.input("w2", aisp::DType::bf16, {d, f}, wfill(f), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {t, d});
    prepare(ctx);
  }
  // The baseline rounds gate and up to bf16 before the SwiGLU (half an ulp, 2^-9 relative, each), the fused
  // epilogue does not: h = silu(g) u differs by ~2^-8 |h| (|h| rms ~0.6). The down GEMM averages 14336 such
  // independent differences with weights of rms sqrt(1/14336): ~1.2e-3 rms at y, ~7e-3 at the 5.5-sigma
  // tail of 8.4M outputs; atol 2e-2 covers that with margin and is 1/60 of rms |y| (~1.2). y is rounded
  // once to bf16 on each side: <= 1 ulp (2^-7 relative) apart, hence rtol 1e-2.
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 2e-2,
        "baseline rounds gate/up to bf16 before SwiGLU (~2^-8 |h|), averaged by the down GEMM to ~1.2e-3 rms at "
        "y; y rounded to bf16 on both sides (<= 1 ulp = 2^-7 rel)");
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  template <class T = __nv_bfloat16>
  static T* scratch(aisp::Context& ctx, const char* name, int64_t count) {
    return static_cast<T*>(ctx.scratch(name, static_cast<size_t>(count) * sizeof(T)));
  }
};
