// ch13 gemm_precision_resident, FP8 variant: the FP8 e4m3 GEMM alone (issue 25: ">= 90% of `aisp hw tc`'s
// FP8 cuBLASLt figure on the same GPU").
//
// Technique: both operands quantized once in setup() with per-tensor scales (amax -> 448 / amax, e4m3,
// low_precision_cast.cuh); run() is one cuBLASLt FP8 GEMM (TN, FP32 accumulate, BF16 out) whose alpha is the
// product of the two dequantization factors (static scales, read back once in setup(): the usual way to
// serve static per-tensor scales). This cuBLASLt (CUDA 13.0, H200) refuses FP8 -> BF16 with A/B scale
// *pointers* (CUBLAS_STATUS_NOT_SUPPORTED, first device call of 2026-11-28 (b)), so the scales are not
// passed that way. Same type combination and shape as `aisp hw tc --dtypes fp8_e4m3` (e4m3 in, BF16 out,
// 12288^3, top heuristic algorithm, no fast accumulation); the differences are alpha != 1 and that this is
// timed by the harness (cold mode, one GEMM per sample) where hw tc times back-to-back GEMMs with CUDA events.
// Why it is faster: Hopper's dense FP8 rate is twice BF16's, operands are half the bytes.
// Expected on Hopper: ~1450 TFLOP/s (~2.6 ms), ~1.8x over the BF16 baseline; >= 90% of hw tc's figure.
// Measured (H200, harness cold mode, 2026-11-28 (b), one call: `aisp bench run -t ch13:gemm_precision_resident
// --time-limit 5 --update-expectations`, then `aisp hw tc --dtypes fp8_e4m3 --no-caps --no-micro`; 19 checks
// passed): 2.510 ms = 1478 TFLOP/s, 1.841x [1.807, 1.896] over BF16 (4.619 ms = 803 TFLOP/s); every sample at
// the power cap. hw tc's FP8 cuBLASLt figure in the same call: 1406 TFLOP/s (best of 6 shapes, 8192 x 8192 x
// 16384; its 12288^3 point 1307): 105% of it (113% of the same-shape point). In the call before (same
// session, same GPU): 1490 at 12288^3, against which 1478 is 99.2%. Issue 25's >= 90% bar is met; the spread
// between the two hw tc runs (1406-1490) is the power cap's, not the GEMM's.
#include "gemm_precision_resident.cuh"
#include "low_precision_cast.cuh"

namespace {

class OptimizedGemmPrecisionResidentFp8 : public GemmPrecisionResidentBase {
 public:
  void run(aisp::Context& ctx) override { gemm_.run(ctx.stream(), a8_, b8_, ctx.buffer("c").data); }
  std::string technique() const override {
    return "FP8 e4m3 operands resident (quantized in setup, per-tensor scales in alpha), FP32 accumulate, BF16 out "
           "(cuBLASLt)";
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 89}; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    a8_ = static_cast<__nv_fp8_e4m3*>(ctx.scratch("a_e4m3", m * k));
    b8_ = static_cast<__nv_fp8_e4m3*>(ctx.scratch("b_e4m3", n * k));
    amax_ = static_cast<unsigned*>(ctx.scratch("amax", 2 * sizeof(unsigned)));
    dequant_ = static_cast<float*>(ctx.scratch("dequant", 2 * sizeof(float)));  // [0] A's, [1] B's
    quantize_per_tensor_e4m3(ctx.stream(), ctx.buffer("a").as<const float>(), m * k, amax_, a8_, dequant_,
                             ctx.device().sm_count);
    quantize_per_tensor_e4m3(ctx.stream(), ctx.buffer("b").as<const float>(), n * k, amax_ + 1, b8_, dequant_ + 1,
                             ctx.device().sm_count);
    float dq[2] = {0, 0};
    AISP_CUDA_CHECK(cudaMemcpyAsync(dq, dequant_, sizeof dq, cudaMemcpyDeviceToHost, ctx.stream()));
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    // cuBLASLt's TN FP8 GEMM (lt_gemm.hpp), alpha = the product of the two dequantization factors (host scalar).
    gemm_.plan(m, n, k, {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes, nullptr, nullptr,
               dq[0] * dq[1]);
  }

 private:
  __nv_fp8_e4m3 *a8_ = nullptr, *b8_ = nullptr;
  unsigned* amax_ = nullptr;
  float* dequant_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmPrecisionResidentFp8)
