// ch19 dynamic_precision, baseline: every token in bf16.
//
// Technique: one cuBLAS GEMM, bf16 inputs, fp32 accumulation, bf16 output (ctx.cublas(), TF32 off).
// Why it is slow(er): bf16 tensor cores run at half the int8 rate on Hopper (989 vs 1979 dense TFLOP/s
// at 1830 MHz); this GEMM (1.1 TFLOP) is compute-bound.
// Expected on Hopper: ~1.45 ms (~760 TFLOP/s, cuBLAS at 8192^3).
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 1.408 ms,
// 781 TFLOP/s (44 samples kept; 58 discarded as power-capped).
#include "dynamic_precision.cuh"

namespace {

class BaselineDynamicPrecision : public dyn_precision::DynamicPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("tokens")), n = static_cast<int>(ctx.param("n")),
              k = static_cast<int>(ctx.param("k"));
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major y[m][n] = x W^T is column-major y^T = W x^T (W: op T of its column-major [k][n] view).
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, ctx.buffer("w").data,
                                   CUDA_R_16BF, k, ctx.buffer("x").data, CUDA_R_16BF, k, &beta, ctx.buffer("y").data,
                                   CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
  std::string technique() const override { return "all tokens bf16: cuBLAS GEMM, fp32 accumulation"; }
};

}  // namespace

AISP_BENCHMARK(BaselineDynamicPrecision)
