// dynamic_precision: a linear layer y = x W^T (x [8192 tokens][8192] bf16 activations, W [8192][8192] bf16
// weights, y bf16, fp32 or int32 accumulation) whose precision is chosen per token at run time from a
// measured error bound.
//   baseline_dynamic_precision.cu   every token in bf16 (cuBLAS, fp32 accumulation)
//   optimized_dynamic_precision.cu  each token is quantized to int8 with its own scale (amax / 127) and the
//                                   quantization's relative error ||x - deq(q(x))|| / ||x|| is measured on
//                                   the spot; tokens within the bound (1.1%) take the int8 tensor-core GEMM
//                                   (per-row int8 weights, int32 accumulation, rescaled in an epilogue),
//                                   tokens above it (wide-range rows: outliers, as LLM.int8() observed) are
//                                   gathered and computed in bf16
// With x ~ N(0, 1) about 1.3% of the tokens exceed the bound (those whose largest |x| is beyond ~4.8 sigma,
// which makes the int8 step coarse for the rest of the row), so both paths run on every call and which
// tokens take which path changes with every fresh input.
// Declared precision i8 (the pair's lowest); declared bytes: x (bf16), int8 W, y.
#pragma once
#include <cmath>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

namespace dyn_precision {

constexpr float kErrorBound = 0.011f;  // max relative rms quantization error of a token taking the int8 path
constexpr int kFallbackRows = 256;     // bf16 rows gathered per call (3%; ~107 expected, sd ~10)

inline int64_t tokens() { return aisp::axis("tokens", 8192); }

class DynamicPrecisionBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t m = tokens(), n = 8192, k = 8192;
    aisp::Workload w;
    w.params = {{"tokens", m}, {"n", n}, {"k", k}};
    w.precision = aisp::DType::i8;
    w.bytes = 2.0 * m * k + double(n) * k + 2.0 * m * n;
    w.flops = 2.0 * m * n * k;
    w.items = double(m);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("tokens"), n = ctx.param("n"), k = ctx.param("k");
    if (k != 8192 || n % 4) throw std::runtime_error("dynamic_precision: the kernels are written for k = 8192, n % 4 == 0");
    const double a = std::sqrt(3.0 / static_cast<double>(k));  // unit-variance outputs
    ctx.input("x", aisp::DType::bf16, {m, k}, aisp::Fill::normal(0, 1));
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-a, a), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {m, n});
    prepare(ctx);
  }
  // For a token on the int8 path the output error is x's rounding (relative rms <= the 1.1% bound, measured)
  // plus W's per-row int8 rounding (relative rms 1/254 for uniform weights), independent terms: relative
  // rms <= sqrt(0.011^2 + 0.0039^2) = 1.17% of rms |y| (= 1: unit-variance weights and inputs). The largest
  // of 67M outputs sits near 5.7 sigma, 0.067; atol 0.08 (~7 sigma), while a dropped 1/16 of the K terms
  // (0.25 rms) or a wrong row (1.4 rms) does not fit. bf16-path tokens differ from the baseline only in
  // cuBLAS's summation order; y is rounded to bf16 on both sides (<= 2^-7 apart), rtol 1e-2.
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 0.08,
        "int8 path: token rounding <= 1.1% relative rms (the switch's measured bound) + per-row int8 weight "
        "rounding 0.39%: <= 1.17% of rms |y| = 1, atol 0.08 ~7 sigma over 67M outputs; rtol 1e-2 bf16 output");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};

}  // namespace dyn_precision
