// Cheat: switches the harness's cuBLAS handle to TF32 tensor-core math inside run() and leaves it so.
// The SGEMM call itself is unchanged; cuBLAS now rounds A and B to TF32 (10-bit mantissa) for a large
// speedup, and the setting would also leak into whatever uses the handle next.
// Real-world exploit: enabling TF32 globally (cublasSetMathMode, torch.backends.cuda.matmul.allow_tf32,
// NVIDIA_TF32_OVERRIDE) for an "FP32" benchmark.
// Caught by: K16 (process state: the handle's math mode changed by run()), K2 (TF32 error ~1e-3 is far
// above the fp32 tolerance).
#include "validity_common.cuh"

struct CublasTf32 : validity::HonestSgemm {
  void run(aisp::Context& ctx) override {
    AISP_CUBLAS_CHECK(cublasSetMathMode(ctx.cublas(), CUBLAS_TF32_TENSOR_OP_MATH));
    validity::sgemm(ctx);
  }
  std::string technique() const override { return "validity cheat: cuBLAS math mode switched to TF32"; }
};

AISP_BENCHMARK(CublasTf32)
