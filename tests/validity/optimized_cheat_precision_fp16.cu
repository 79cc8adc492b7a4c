// Cheat: the fp32 SGEMM computed from fp16 copies of A and B (converted into scratch every call, then
// cublasGemmEx with fp16 inputs and fp32 accumulation on tensor cores). The output is still an fp32
// buffer, so nothing in the interface shows that the precision was lowered.
// Real-world exploit: silently running a "FP32" benchmark in FP16/BF16 (or TF32) for a tensor-core
// speedup; the error (~1e-3 relative) is far above the fp32 tolerance.
// Caught by: K2 (full comparison with the fp32 baseline at the fp32 tolerance, rtol 1e-5).
#include "validity_common.cuh"

namespace {

__global__ void to_half(const float* __restrict__ x, __half* __restrict__ y, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half_rn(x[i]);
}

}  // namespace

struct PrecisionFp16 : validity::HonestSgemm {
  __half* a16 = nullptr;
  __half* b16 = nullptr;
  void setup(aisp::Context& ctx) override {
    validity::declare_sgemm_buffers(ctx);
    const size_t bytes = validity::kGemm * validity::kGemm * sizeof(__half);
    a16 = static_cast<__half*>(ctx.scratch("a16", bytes));
    b16 = static_cast<__half*>(ctx.scratch("b16", bytes));
  }
  void run(aisp::Context& ctx) override {
    const int64_t count = validity::kGemm * validity::kGemm;
    to_half<<<validity::blocks_for(count), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), a16, count);
    AISP_LAUNCH_CHECK();
    to_half<<<validity::blocks_for(count), 256, 0, ctx.stream()>>>(ctx.buffer("b").as<const float>(), b16, count);
    AISP_LAUNCH_CHECK();
    const float one = 1.f, zero = 0.f;
    const int n = static_cast<int>(validity::kGemm);
    // Row-major C = A B as column-major C^T = B^T A^T, as in validity::sgemm.
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b16, CUDA_R_16F, n, a16,
                                   CUDA_R_16F, n, &zero, ctx.buffer("c").data, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT));
  }
  std::string technique() const override { return "validity cheat: SGEMM silently computed from fp16 inputs"; }
};

AISP_BENCHMARK(PrecisionFp16)
