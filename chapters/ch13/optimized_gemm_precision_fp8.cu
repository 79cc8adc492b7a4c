// ch13 gemm_precision, FP8 variant: e4m3 operands with per-tensor scales, FP32 accumulation and output.
//
// Technique: FP8 GEMM with dynamic per-tensor scaling (low_precision_cast.cuh). The static weight is
// quantized once in setup() (amax, scale, e4m3); in run() the activation's amax is reduced on the device,
// the activation is quantized with 448 / amax, and cuBLASLt's FP8 GEMM applies both dequantization
// factors (A/B scale pointers, device memory) to the FP32 accumulators. No host round trip.
// Why it is faster: Hopper's dense FP8 rate is twice BF16's (~1979 TFLOP/s peak), and the operands are
// half the bytes. The amax and quantize passes over A (256 MiB of FP32) cost ~0.2 ms at 8192^3.
// Expected on Hopper: GEMM ~0.75 ms (~1450 TFLOP/s, `aisp hw tc`: 1469-1502 on this project's H100) + ~0.2 ms
// of scaling: ~20x over FP32, ~1.5x over BF16. Error rms ~1.1 (K = 8192).
// Measured: see the chapter README.
#include "gemm_precision.cuh"
#include "low_precision_cast.cuh"

namespace {

class OptimizedGemmPrecisionFp8 : public GemmPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    quantize_per_tensor_e4m3(ctx.stream(), ctx.buffer("a").as<const float>(), ctx.param("m") * ctx.param("k"), amax_,
                             a8_, dequant_, ctx.device().sm_count);
    gemm_.run(ctx.stream(), a8_, b8_, ctx.buffer("c").data);
  }
  std::string technique() const override { return "FP8 e4m3 operands, per-tensor dynamic scales, FP32 accumulate (cuBLASLt)"; }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 89}; }  // FP8 tensor cores

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    a8_ = static_cast<__nv_fp8_e4m3*>(ctx.scratch("a_e4m3", m * k));
    b8_ = static_cast<__nv_fp8_e4m3*>(ctx.scratch("b_e4m3", n * k));
    amax_ = static_cast<unsigned*>(ctx.scratch("amax", 2 * sizeof(unsigned)));
    dequant_ = static_cast<float*>(ctx.scratch("dequant", 2 * sizeof(float)));  // [0] A's, [1] B's
    quantize_per_tensor_e4m3(ctx.stream(), ctx.buffer("b").as<const float>(), n * k, amax_ + 1, b8_, dequant_ + 1,
                             ctx.device().sm_count);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    gemm_.plan(m, n, k, {CUDA_R_8F_E4M3, CUDA_R_32F, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes, dequant_,
               dequant_ + 1);
  }

 private:
  __nv_fp8_e4m3 *a8_ = nullptr, *b8_ = nullptr;
  unsigned* amax_ = nullptr;
  float* dequant_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmPrecisionFp8)
