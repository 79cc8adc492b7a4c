// ch18 tiny_gemm_fused, baseline: RMSNorm, merged gate_up GEMM, SiLU-and-mul as three kernels.
//
// Technique: vLLM's decode MLP path. rms_norm: one warp per token row writes xn (bf16, 64 KB) to a
// workspace. cuBLAS GemmEx (bf16 inputs, fp32 compute and output, TF32 irrelevant): gu[8][16384] =
// xn W_gate_up^T, one merged GEMM (not two) as vLLM's MergedColumnParallelLinear does. silu_and_mul: h =
// silu(gu[:, :8192]) * gu[:, 8192:] in bf16.
// Why it is slower: three launches on the critical path, each with a ramp and a tail around a ~45 us
// weight read; at M = 8 the GEMM is a split GEMV for cuBLAS, whose tile choice is not made for 8 rows; the
// intermediate (512 KB fp32) goes through L2/HBM and back.
// Expected on Hopper: the weight read (134 MB) at ~2.5-2.9 TB/s plus ~5-10 us of launches and tails: ~55 us.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 70.8 us (1.9 TB/s on the declared bytes);
// later runs (docs/measurements/closing_calls_20261128.md): H100 65.4 us, H200 49.9 us.
#include "tiny_gemm_fused.cuh"

namespace {

using namespace tiny_gemm;

__global__ void rms_norm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ gamma, int k,
                         __nv_bfloat16* __restrict__ xn) {
  const int row = threadIdx.x / 32, lane = threadIdx.x % 32;  // one warp per row
  const float r = rms_inverse(x + static_cast<int64_t>(row) * k, k);
  const uint4* xr = reinterpret_cast<const uint4*>(x + static_cast<int64_t>(row) * k);
  uint4* out = reinterpret_cast<uint4*>(xn + static_cast<int64_t>(row) * k);
  for (int c = lane; c < k / 8; c += 32) out[c] = norm_chunk(xr[c], reinterpret_cast<const uint4*>(gamma)[c], r);
}

__global__ void silu_and_mul(const float* __restrict__ gu, int n, int tokens, __nv_bfloat16* __restrict__ h) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= int64_t(n) * tokens) return;
  const int64_t m = i / n, c = i % n;
  h[i] = __float2bfloat16_rn(silu_mul(gu[m * 2 * n + c], gu[m * 2 * n + n + c]));
}

class BaselineTinyGemm : public TinyGemmFusedBase {
 public:
  std::string technique() const override { return "rms_norm kernel + merged gate_up cuBLAS GEMM + silu_and_mul kernel"; }
  void run(aisp::Context& ctx) override {
    rms_norm<<<1, kTokens * 32, 0, ctx.stream()>>>(ctx.buffer("x").as<const __nv_bfloat16>(),
                                                   ctx.buffer("gamma").as<const __nv_bfloat16>(), kHidden, xn_);
    AISP_LAUNCH_CHECK();
    // Row-major gu[8][2I] = xn[8][H] * W[2I][H]^T is column-major gu^T (2I x 8) = W (op T) * xn^T.
    const float one = 1.0f, zero = 0.0f;
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, 2 * kInter, kTokens, kHidden, &one,
                                   ctx.buffer("w_gate_up").data, CUDA_R_16BF, kHidden, xn_, CUDA_R_16BF, kHidden, &zero, gu_,
                                   CUDA_R_32F, 2 * kInter, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    silu_and_mul<<<(kTokens * kInter + 255) / 256, 256, 0, ctx.stream()>>>(gu_, kInter, kTokens,
                                                                           ctx.buffer("h").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    xn_ = static_cast<__nv_bfloat16*>(ctx.scratch("xn", size_t{kTokens} * kHidden * 2));
    gu_ = static_cast<float*>(ctx.scratch("gate_up", size_t{kTokens} * 2 * kInter * 4));
  }

 private:
  __nv_bfloat16* xn_ = nullptr;
  float* gu_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineTinyGemm)
