// ch16 int8_weight_only, baseline: the decode Linear layer with BF16 weights through cuBLAS (int8_weight_only.cuh):
// cublasGemmEx, BF16 operands, FP32 accumulate (CUBLAS_COMPUTE_32F), BF16 out. At M = 4 cuBLAS runs a
// memory-bound kernel that streams W once: 117 MB. Expected on H100: ~45 us (~2.6 TB/s). Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 44.5 us (2.64 TB/s).
#include "int8_weight_only.cuh"

namespace {

class BaselineInt8WeightOnly : public Int8WeightOnlyBase {
 public:
  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n")), k = static_cast<int>(ctx.param("k"));
    const float one = 1.0f, zero = 0.0f;
    // Row-major Y[M][N] = X W^T is column-major Y^T (N x M) = W^T(op: T of the K x N col-major W) * X^T.
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, ctx.buffer("w").data, CUDA_R_16BF, k,
                                   ctx.buffer("x").data, CUDA_R_16BF, k, &zero, ctx.buffer("y").data, CUDA_R_16BF, n,
                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
  std::string technique() const override { return "BF16 weights, cuBLAS GEMM (FP32 accumulate)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineInt8WeightOnly)
