// cublaslt_gemm_fp8: the linear layer y = x * w^T (x: 4096 x 4096 BF16 activations, w: 4096 x 4096 BF16
// weights in nn.Linear layout, y: 4096 x 4096 BF16), computed by cuBLASLt in BF16 (baseline) and in FP8
// E4M3 with per-tensor scales (optimized). Shared by baseline_cublaslt_gemm_fp8.cu and
// optimized_cublaslt_gemm_fp8.cu.
//
// PRECISION CHANGE: the optimized variant quantizes both operands to FP8 E4M3 (3 mantissa bits), so its
// output is an approximation of the baseline's, not a reordering of it. The workload declares fp8_e4m3
// as its precision (the lowest precision either variant computes in, which also sets the plausibility
// ceiling to the FP8 tensor-core peak) and the tolerance below is derived from the quantization error.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 4096^3: 137 GFLOP, ~170 us in BF16 at the ~800 TFLOP/s cuBLASLt reaches on H100 SXM - long enough
// that the FP8 variant's per-run activation quantization (~20 us) is not the whole story.
inline constexpr int64_t kFp8GemmM = 4096, kFp8GemmN = 4096, kFp8GemmK = 4096;

inline aisp::Workload cublaslt_gemm_fp8_workload() {
  const double m = kFp8GemmM, n = kFp8GemmN, k = kFp8GemmK;
  aisp::Workload w;
  w.params = {{"m", kFp8GemmM}, {"n", kFp8GemmN}, {"k", kFp8GemmK}};
  w.precision = aisp::DType::fp8_e4m3;  // see the PRECISION CHANGE note above
  w.bytes = (m * k + n * k + m * n) * 2.0;  // the layer's BF16 x, w read once and BF16 y written once
  w.flops = 2.0 * m * n * k;
  w.items = m;
  w.item_unit = "tokens";
  return w;
}

// Error model: per-tensor scaling maps max|x| and max|w| to 448 (E4M3's largest finite value); rounding to
// 3 mantissa bits then perturbs each product x_i w_i by ~3.7% rms of its size, independently, so the error
// of a k-term dot product is ~sqrt(k) x 0.012 for uniform(-1, 1) inputs. A host simulation of exactly this
// quantization (k = 4096, 131072 outputs, BF16-rounded results) gave error rms 0.773 against an output rms
// of 21.3, max 4.0 (5.2 sigma). atol 6.0 = 7.8 sigma, so all 16.7 M outputs pass with margin (the chance of
// one Gaussian error beyond 7.8 sigma in 16.7 M is ~1e-7), while a wrong scale, operand order or missing
// k-block errs by O(|y|) ~ 20 and fails. rtol 2^-7 covers the BF16 rounding of the larger outputs.
inline aisp::Tolerance cublaslt_gemm_fp8_tolerance() {
  return aisp::Tolerance::loosened(
      0.0078125, 6.0,
      "FP8 E4M3 quantization of x and w (per-tensor scales): simulated error rms 0.77 for k=4096, "
      "|x|,|w|<=1 (output rms 21.3); atol = 7.8 sigma; rtol = 1 BF16 ulp");
}

// The pair's base: its workload, buffers and tolerance; each variant adds only its kernels and run().
class CublasltGemmFp8Base : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cublaslt_gemm_fp8_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    // |x|, |w| <= 1: the tolerance above is derived for this distribution.
    ctx.input("x", aisp::DType::bf16, {m, k}, aisp::Fill::uniform(-1, 1));
    // Weights are static: quantizing them once in setup() is what an FP8 deployment does (and allowed).
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {m, n});
  }
  aisp::Tolerance tolerance() const override { return cublaslt_gemm_fp8_tolerance(); }
};
