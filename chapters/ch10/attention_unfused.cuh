// The unfused ("standard") attention both flash_attention baselines run: three kernels through global memory,
// what an eager framework's math path does (matmul, softmax, matmul).
//   1. S = (Q K^T) / sqrt(d): cuBLAS strided-batched GEMM, bf16 in, fp32 accumulate, fp32 S out
//      (batch x heads x seq x seq x 4 B = 4 GiB at the default size);
//   2. P = softmax(S) per row in fp32 (causal: keys after the query get 0), P written in bf16 (2 GiB);
//   3. O = P V: cuBLAS strided-batched GEMM, bf16 in, fp32 accumulate, bf16 O out.
// Every accumulation is fp32 (CUBLAS_COMPUTE_32F; the harness pins the math mode, no TF32), so this is the
// reference the fused kernels are verified against. It is a strong baseline on purpose: its GEMMs run on
// the tensor cores at cuBLAS speed, so what the fused kernel wins is the S/P round trips through HBM
// (~12 GiB of traffic at the default size against 64 MiB of Q, K, V, O) and the two extra launches, not a
// slow matmul. Causal: S is computed in full and masked afterwards, as the math path does.
#pragma once
#include <cublas_v2.h>

#include "flash_attention.cuh"

namespace attention_unfused {

constexpr int kSoftmaxThreads = 256;
constexpr int kMaxVecPerThread = 8;  // float4s of a row a thread holds: seq <= 8 x 4 x 256 = 8192

// One block per row of S: the row (16 KiB at seq 4096) stays in registers between max, sum and write.
template <bool kCausal>
__global__ void __launch_bounds__(kSoftmaxThreads)
softmax_rows_kernel(const float* __restrict__ s, __nv_bfloat16* __restrict__ p, int seq) {
  const int64_t row = blockIdx.x;
  const int query = static_cast<int>(row % seq);
  const float4* in = reinterpret_cast<const float4*>(s + row * seq);
  float4 v[kMaxVecPerThread];
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    const int col = (i * kSoftmaxThreads + threadIdx.x) * 4;
    v[i] = col < seq ? in[col / 4] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    if (kCausal) {  // keys after the query are masked out
      if (col + 0 > query) v[i].x = -INFINITY;
      if (col + 1 > query) v[i].y = -INFINITY;
      if (col + 2 > query) v[i].z = -INFINITY;
      if (col + 3 > query) v[i].w = -INFINITY;
    }
    mx = fmaxf(mx, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
  }
  __shared__ float red[kSoftmaxThreads / 32];
  auto block_reduce = [&](float x, bool is_max) {
    for (int o = 16; o > 0; o /= 2) {
      const float y = __shfl_xor_sync(0xffffffffu, x, o);
      x = is_max ? fmaxf(x, y) : x + y;
    }
    __syncthreads();  // red[] may still be read from the previous reduction
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = x;
    __syncthreads();
    x = red[0];
    for (int w = 1; w < kSoftmaxThreads / 32; ++w) x = is_max ? fmaxf(x, red[w]) : x + red[w];
    return x;
  };
  mx = block_reduce(mx, true);  // finite: key 0 is never masked
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    v[i] = make_float4(expf(v[i].x - mx), expf(v[i].y - mx), expf(v[i].z - mx), expf(v[i].w - mx));
    sum += (v[i].x + v[i].y) + (v[i].z + v[i].w);
  }
  const float inv = 1.0f / block_reduce(sum, false);
  uint2* out = reinterpret_cast<uint2*>(p + row * seq);
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    const int col = (i * kSoftmaxThreads + threadIdx.x) * 4;
    if (col >= seq) break;
    const __nv_bfloat162 lo = __floats2bfloat162_rn(v[i].x * inv, v[i].y * inv);
    const __nv_bfloat162 hi = __floats2bfloat162_rn(v[i].z * inv, v[i].w * inv);
    out[col / 4] = make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
  }
}

template <bool kCausal>
class UnfusedAttention : public FlashAttentionPair<kCausal> {
 protected:
  void setup_variant(aisp::Context& ctx) override {
    const int64_t seq = ctx.param("seq"), bh = this->batch_heads(ctx);
    if (seq > kMaxVecPerThread * 4 * kSoftmaxThreads)
      throw std::runtime_error("flash_attention baseline: the softmax kernel holds rows of at most 8192");
    s_ = static_cast<float*>(ctx.scratch("s", static_cast<size_t>(bh) * seq * seq * sizeof(float)));
    p_ = static_cast<__nv_bfloat16*>(ctx.scratch("p", static_cast<size_t>(bh) * seq * seq * sizeof(__nv_bfloat16)));
  }

 public:
  void run(aisp::Context& ctx) override {
    const int seq = static_cast<int>(ctx.param("seq")), d = static_cast<int>(kAttnHeadDim);
    const int bh = static_cast<int>(this->batch_heads(ctx));
    const int64_t head = static_cast<int64_t>(seq) * d, square = static_cast<int64_t>(seq) * seq;
    cublasHandle_t h = ctx.cublas();
    const float scale = this->softmax_scale(), one = 1.0f, zero = 0.0f;
    // Row-major S[q][k] is column-major S^T = K Q^T: A = K (row-major seq x d = column-major d x seq, so op T),
    // B = Q (column-major d x seq, op N).
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, d, &scale, ctx.buffer("k").data, CUDA_R_16BF, d, head,
        ctx.buffer("q").data, CUDA_R_16BF, d, head, &zero, s_, CUDA_R_32F, seq, square, bh, CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT));
    softmax_rows_kernel<kCausal><<<static_cast<unsigned>(static_cast<int64_t>(bh) * seq), kSoftmaxThreads, 0,
                                   ctx.stream()>>>(s_, p_, seq);
    AISP_LAUNCH_CHECK();
    // Row-major O[q][d] is column-major O^T = V^T P^T: V row-major = column-major d x seq (op N), P row-major
    // = column-major P^T (op N).
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_N, CUBLAS_OP_N, d, seq, seq, &one, ctx.buffer("v").data, CUDA_R_16BF, d, head, p_,
        CUDA_R_16BF, seq, square, &zero, ctx.buffer("o").data, CUDA_R_16BF, d, head, bh, CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT));
  }

  std::string technique() const override {
    return "unfused attention: cuBLAS Q K^T to fp32 S in HBM, softmax kernel, cuBLAS P V";
  }

 private:
  float* s_ = nullptr;
  __nv_bfloat16* p_ = nullptr;
};

}  // namespace attention_unfused
