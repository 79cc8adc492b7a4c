// ch13 gemm_precision, FP8 variant: e4m3 operands with per-tensor scales, FP32 accumulation and output.
//
// Technique: FP8 GEMM with dynamic per-tensor scaling (low_precision_cast.cuh). The static weight is
// quantized once in setup() (amax, scale, e4m3); in run() the activation's amax is reduced on the device,
// the activation is quantized with 448 / amax, and cuBLASLt's FP8 GEMM applies both dequantization
// factors (A/B scale pointers, device memory) to the FP32 accumulators. No host round trip. Where
// cuBLASLt refuses an FP32 output for FP8 operands (it did on the H100, cuBLAS 13.0), setup() detects it and
// the GEMM writes BF16 that one more kernel widens to FP32 (see prepare()).
// Why it is faster: Hopper's dense FP8 rate is twice BF16's (~1979 TFLOP/s peak), and the operands are
// half the bytes. The amax and quantize passes over A (256 MiB of FP32) cost ~0.2 ms at 8192^3.
// Expected on Hopper: GEMM ~0.75 ms (~1450 TFLOP/s, `aisp hw tc`: 1469-1502 on this project's H100) + ~0.2 ms
// of scaling: ~20x over FP32, ~1.5x over BF16. Error rms ~1.1 (K = 8192).
// Measured (H200, harness cold mode, 2026-11-28, `aisp bench run -t ch13:gemm_precision --time-limit 4`,
// 19 checks passed): 980.7 us = 1121 TFLOP/s, 21.86x [21.46, 22.26] over FP32; every sample at NVML's power
// cap. Against `aisp hw tc`'s FP8 cuBLASLt figure in the same call (1464 TFLOP/s, best shape 12288^3; its
// 8192^3 point 1429): 76.6% (78.5% at the same shape). The bar of issue 25 (>= 90%) is not met as timed:
// run() also does the amax and quantize passes over FP32 A and writes FP32 C, which hw tc's GEMM does not.
// (The first H100 run, 2026-11-25, stopped at CUBLAS_STATUS_NOT_SUPPORTED for the FP32 output; see README.)
#include <cstdio>

#include "gemm_precision.cuh"
#include "low_precision_cast.cuh"

namespace {

// C = widen(C16) [* dequant[0] * dequant[1] when the GEMM could not apply the scales itself]. n % 8 == 0.
__global__ void widen_bf16(const __nv_bfloat16* __restrict__ c16, float* __restrict__ c, const float* __restrict__ dequant,
                           int64_t n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;
  if (i >= n) return;
  const float s = dequant ? dequant[0] * dequant[1] : 1.0f;
  const uint4 raw = *reinterpret_cast<const uint4*>(c16 + i);
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
  float4 out[2];
  float* o = reinterpret_cast<float*>(out);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const float2 p = __bfloat1622float2(h[j]);
    o[2 * j] = p.x * s;
    o[2 * j + 1] = p.y * s;
  }
  reinterpret_cast<float4*>(c + i)[0] = out[0];
  reinterpret_cast<float4*>(c + i)[1] = out[1];
}

class OptimizedGemmPrecisionFp8 : public GemmPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    quantize_per_tensor_e4m3(ctx.stream(), ctx.buffer("a").as<const float>(), ctx.param("m") * ctx.param("k"), amax_,
                             a8_, dequant_, ctx.device().sm_count);
    if (!c16_) {
      gemm_.run(ctx.stream(), a8_, b8_, ctx.buffer("c").data);
      return;
    }
    const int64_t n = ctx.param("m") * ctx.param("n");
    gemm_.run(ctx.stream(), a8_, b8_, c16_);
    widen_bf16<<<cast_blocks(n), 256, 0, ctx.stream()>>>(c16_, ctx.buffer("c").as<float>(),
                                                         scales_in_gemm_ ? nullptr : dequant_, n);
    AISP_LAUNCH_CHECK();
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
    if (gemm_.runs(ctx.stream(), a8_, b8_, ctx.buffer("c").data)) return;
    // This cuBLASLt refuses FP32 output for FP8 operands: take BF16 output (the combination Transformer
    // Engine and `aisp hw tc` use) and widen it to FP32. Costs a 128 MiB read and a 256 MiB write, and a
    // BF16 rounding of C (2^-9 relative, rms ~0.06 here: 1/20 of the FP8 error).
    c16_ = static_cast<__nv_bfloat16*>(ctx.scratch("c_bf16", m * n * sizeof(__nv_bfloat16)));
    gemm_.plan(m, n, k, {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes, dequant_,
               dequant_ + 1);
    if (!gemm_.runs(ctx.stream(), a8_, b8_, c16_)) {
      // Last resort: no scale pointers; the widening kernel applies both dequantization factors instead.
      gemm_.plan(m, n, k, {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes);
      scales_in_gemm_ = false;
    }
    std::fprintf(stderr, "[gemm_precision_fp8] FP32 output refused by this cuBLASLt: BF16 output + widening, scales %s\n",
                 scales_in_gemm_ ? "in the GEMM" : "in the widening kernel");
  }

 private:
  __nv_fp8_e4m3 *a8_ = nullptr, *b8_ = nullptr;
  unsigned* amax_ = nullptr;
  float* dequant_ = nullptr;
  __nv_bfloat16* c16_ = nullptr;  // set when the GEMM writes BF16 (see prepare())
  bool scales_in_gemm_ = true;
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmPrecisionFp8)
