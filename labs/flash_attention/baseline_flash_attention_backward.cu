// labs/flash_attention flash_attention_backward, baseline: the unfused attention backward, what an eager
// framework's math path does with the saved logsumexp - five cuBLAS strided-batched GEMMs (bf16 in, fp32
// accumulate; the harness pins the math mode, no TF32) and two small kernels, every intermediate in HBM:
//   D  = rowsum(dO * O)                        rowdot kernel (the pair's pre-pass)
//   S  = Q K^T * scale  -> fp32 (1 GiB)         cuBLAS
//   dP = dO V^T         -> fp32 (1 GiB)         cuBLAS
//   P = exp(S - L) -> bf16, dS = P (dP - D) -> bf16 (0.5 GiB each)   one elementwise kernel
//   dV = P^T dO, dQ = dS K * scale, dK = dS^T Q * scale -> fp32     cuBLAS
// A strong baseline on purpose: its 5 GEMMs (344 GFLOP) run at cuBLAS speed on the tensor cores, so what
// the fused kernel can win is the ~6.5 GB of S/dP/P/dS traffic (~1.4 ms at the H200's 4.8 TB/s), not a
// slow matmul. Expected on Hopper: ~2-2.5 ms (GEMMs ~0.6-0.8 ms + traffic).
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations`, cold mode): 1.868 ms (184 TFLOP/s counting the 5 GEMMs), 14/14 checks, peak 3370 MiB.
#include <cublas_v2.h>

#include "flash_attention_backward.cuh"

namespace fa_bwd {

// P = exp(S - L[row]) and dS = P (dP - D[row]), 4 elements per thread per step; rows of seq elements.
__global__ void __launch_bounds__(256)
    softmax_grad_kernel(const float* __restrict__ s, const float* __restrict__ dp, const float* __restrict__ lse,
                        const float* __restrict__ d, __nv_bfloat16* __restrict__ p, __nv_bfloat16* __restrict__ ds,
                        int64_t count4, int seq) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count4;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = i * 4 / seq;
    const float l = lse[row], dd = d[row];
    const float4 sv = reinterpret_cast<const float4*>(s)[i];
    const float4 gv = reinterpret_cast<const float4*>(dp)[i];
    const float p0 = expf(sv.x - l), p1 = expf(sv.y - l), p2 = expf(sv.z - l), p3 = expf(sv.w - l);
    const __nv_bfloat162 pa = __floats2bfloat162_rn(p0, p1), pb = __floats2bfloat162_rn(p2, p3);
    const __nv_bfloat162 da = __floats2bfloat162_rn(p0 * (gv.x - dd), p1 * (gv.y - dd));
    const __nv_bfloat162 db = __floats2bfloat162_rn(p2 * (gv.z - dd), p3 * (gv.w - dd));
    reinterpret_cast<uint2*>(p)[i] =
        make_uint2(*reinterpret_cast<const uint32_t*>(&pa), *reinterpret_cast<const uint32_t*>(&pb));
    reinterpret_cast<uint2*>(ds)[i] =
        make_uint2(*reinterpret_cast<const uint32_t*>(&da), *reinterpret_cast<const uint32_t*>(&db));
  }
}

class BaselineFlashAttentionBackward : public FlashAttentionBackwardPair {
 protected:
  void setup_variant(aisp::Context& ctx) override {
    const int64_t seq = ctx.param("seq"), square = batch_heads(ctx) * seq * seq;
    s_ = static_cast<float*>(ctx.scratch("s", static_cast<size_t>(square) * sizeof(float)));
    dp_ = static_cast<float*>(ctx.scratch("dp", static_cast<size_t>(square) * sizeof(float)));
    p_ = static_cast<__nv_bfloat16*>(ctx.scratch("p", static_cast<size_t>(square) * sizeof(__nv_bfloat16)));
    ds_ = static_cast<__nv_bfloat16*>(ctx.scratch("ds", static_cast<size_t>(square) * sizeof(__nv_bfloat16)));
  }

 public:
  void run(aisp::Context& ctx) override {
    const int seq = static_cast<int>(ctx.param("seq")), d = static_cast<int>(kHeadDim);
    const int bh = static_cast<int>(batch_heads(ctx));
    const int64_t head = static_cast<int64_t>(seq) * d, square = static_cast<int64_t>(seq) * seq;
    cublasHandle_t h = ctx.cublas();
    const float scale = softmax_scale(), one = 1.0f, zero = 0.0f;
    const void *q = ctx.buffer("q").data, *k = ctx.buffer("k").data, *v = ctx.buffer("v").data;
    const void* dout = ctx.buffer("do").data;

    launch_rowdot(ctx);
    // Row-major S[q][k] is column-major S^T = K Q^T: A = K (row-major seq x d = column-major d x seq, op T),
    // B = Q (column-major d x seq, op N). dP = dO V^T the same way with V and dO.
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, d, &scale, k, CUDA_R_16BF, d, head, q,
                                                 CUDA_R_16BF, d, head, &zero, s_, CUDA_R_32F, seq, square, bh,
                                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, d, &one, v, CUDA_R_16BF, d, head, dout,
                                                 CUDA_R_16BF, d, head, &zero, dp_, CUDA_R_32F, seq, square, bh,
                                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    const int64_t count4 = bh * square / 4;
    softmax_grad_kernel<<<132 * 16, 256, 0, ctx.stream()>>>(s_, dp_, ctx.buffer("lse").as<const float>(), d_, p_, ds_, count4,
                                                            seq);
    AISP_LAUNCH_CHECK();
    // dV^T (d x seq_k, column-major = row-major dV) = dO^T (d x seq_q: dO as stored, op N) . P (seq_q x seq_k:
    // row-major P is column-major P^T, so op T).
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_T, d, seq, seq, &one, dout, CUDA_R_16BF, d, head, p_,
                                                 CUDA_R_16BF, seq, square, &zero, ctx.buffer("dv").data, CUDA_R_32F, d, head,
                                                 bh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    // dQ^T (d x seq_q) = K^T (d x seq_k: K as stored, op N) . dS^T (seq_k x seq_q: row-major dS as stored, op N).
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, d, seq, seq, &scale, k, CUDA_R_16BF, d, head, ds_,
                                                 CUDA_R_16BF, seq, square, &zero, ctx.buffer("dq").data, CUDA_R_32F, d, head,
                                                 bh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    // dK^T (d x seq_k) = Q^T (d x seq_q, op N) . dS (seq_q x seq_k: stored column-major dS^T, op T).
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_T, d, seq, seq, &scale, q, CUDA_R_16BF, d, head, ds_,
                                                 CUDA_R_16BF, seq, square, &zero, ctx.buffer("dk").data, CUDA_R_32F, d, head,
                                                 bh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

  std::string technique() const override {
    return "unfused attention backward: cuBLAS S and dP to fp32 in HBM, elementwise P/dS kernel, 3 cuBLAS GEMMs";
  }

 private:
  float *s_ = nullptr, *dp_ = nullptr;
  __nv_bfloat16 *p_ = nullptr, *ds_ = nullptr;
};

}  // namespace fa_bwd

using fa_bwd::BaselineFlashAttentionBackward;
AISP_BENCHMARK(BaselineFlashAttentionBackward)
