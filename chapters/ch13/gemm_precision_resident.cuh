// gemm_precision_resident: the FP8 GEMM alone, against `aisp hw tc`'s FP8 cuBLASLt figure (issue 25).
// C[M][N] = A[M][K] * B[N][K]^T at 12288^3 (3.71 TFLOP; `aisp hw tc`'s plateau shape, its best FP8 point on
// the H200 on 2026-11-28), with both operands already resident in the compute precision: they are cast or
// quantized once in setup(), as a serving engine keeps FP8 weights and receives FP8 activations from the
// previous layer's epilogue. run() is the GEMM and nothing else (BF16 output, as `aisp hw tc` writes), so its
// TFLOP/s can be set against hw tc's figure directly. ch13:gemm_precision is the end-to-end version (FP32
// in and out, the activation's amax and quantization inside run()); it measured 76.6% of that figure.
//
//   baseline_gemm_precision_resident.cu       BF16 operands, FP32 accumulate, BF16 out (cuBLASLt)
//   optimized_gemm_precision_resident_fp8.cu  FP8 e4m3 operands, per-tensor scales (device pointers, applied
//                                             by the GEMM), FP32 accumulate, BF16 out (cuBLASLt)
//
// Declared precision: fp8_e4m3. Tolerance (from the arithmetic, as gemm_precision.cuh): per-tensor-scaled
// e4m3 operands err by up to 2^-4 each; over K products of random sign the output error is Gaussian with
// rms 0.0121 sqrt(K) (host emulation of this quantization, uniform(-1, 1) operands; output rms sqrt(K)/3);
// atol = 9 rms = 0.109 sqrt(K) (12.1 at K = 12288). The BF16 baseline's own error (rms ~0.07 sqrt(K/8192))
// is 1/20 of that. Both outputs are rounded to BF16 (<= 2^-9 relative each): rtol 1e-2 covers the two.
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "gemm_precision.cuh"  // LtGemm, the cuBLASLt workspace size, the FP8 tolerance

inline int64_t gemm_resident_m() { return aisp::axis("m", 12288); }
inline int64_t gemm_resident_n() { return aisp::axis("n", 12288); }
inline int64_t gemm_resident_k() { return aisp::axis("k", 12288); }

class GemmPrecisionResidentBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t m = gemm_resident_m(), n = gemm_resident_n(), k = gemm_resident_k();
    aisp::Workload w;
    w.params = {{"m", m}, {"n", n}, {"k", k}};
    w.precision = aisp::DType::fp8_e4m3;
    // Minimum traffic at the declared precision: A and B read once as FP8, C written once as BF16.
    w.bytes = double(m) * k + double(n) * k + 2.0 * double(m) * n;
    w.flops = 2.0 * double(m) * double(n) * double(k);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % 16 || n % 16 || k % 16) throw std::runtime_error("gemm_precision_resident: m, n, k must be multiples of 16");
    // Both operands static: converted once in setup() (the point of this pair; see the header comment).
    ctx.input("a", aisp::DType::f32, {m, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("b", aisp::DType::f32, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("c", aisp::DType::bf16, {m, n});
    workspace_ = ctx.scratch("lt_workspace", kLtWorkspaceBytes);
    prepare(ctx);
  }
  aisp::Tolerance tolerance() const override {
    return fp8_e4m3_gemm_tolerance(gemm_resident_k(), "; BF16 outputs (2^-9 rel each)");
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  void* workspace_ = nullptr;
  LtGemm gemm_;
};
