// labs/gemm, reference: cuBLAS (cublasGemmEx, BF16 in, FP32 compute, BF16 out).
//
// Technique: the vendor library's Hopper kernel (CUTLASS-derived: TMA, wgmma, warp specialization,
// persistent scheduling, clusters), through ctx.cublas() (bound to the harness stream, TF32 off).
// Why it is here: the bar the hand kernels are measured against, on the same GPU, in the same run.
// Expected on Hopper: ~770-790 TFLOP/s at 8192^3 (hopper_kernels.md: 789 NN, 772 TN measured on this H100).
// Measured: see README (H100 run of this commit).
#include "gemm.cuh"

namespace {

class OptimizedLabGemmCublas : public LabGemmBase {
 public:
  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n")),
              k = static_cast<int>(ctx.param("k"));
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major C[m][n] = A B^T is column-major C^T = B A^T: B (column-major [k][n]) op T, A op N.
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, ctx.buffer("b").data,
                                   CUDA_R_16BF, k, ctx.buffer("a").data, CUDA_R_16BF, k, &beta, ctx.buffer("c").data,
                                   CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
  std::string technique() const override { return "cuBLAS cublasGemmEx (reference)"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedLabGemmCublas)
