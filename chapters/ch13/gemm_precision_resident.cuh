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
#include "gemm_precision.cuh"  // the pairs' base (LtGemmPairBase: workload, declarations, FP8 tolerance), LtGemm

inline int64_t gemm_resident_m() { return aisp::axis("m", 12288); }
inline int64_t gemm_resident_n() { return aisp::axis("n", 12288); }
inline int64_t gemm_resident_k() { return aisp::axis("k", 12288); }

// This pair: 12288^3, both operands static (converted once in setup(): the point of this pair, see the header
// comment), BF16 C.
struct GemmPrecisionResidentSpec {
  static int64_t m() { return gemm_resident_m(); }
  static int64_t n() { return gemm_resident_n(); }
  static int64_t k() { return gemm_resident_k(); }
  static constexpr const char* kName = "gemm_precision_resident";
  static constexpr bool kAStatic = true;
  static constexpr aisp::DType kC = aisp::DType::bf16;
  static constexpr double kCBytes = 2.0;
  static constexpr const char* kTolNote = "; BF16 outputs (2^-9 rel each)";
};
using GemmPrecisionResidentBase = LtGemmPairBase<GemmPrecisionResidentSpec>;
