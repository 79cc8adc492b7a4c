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

#include <stdexcept>
#include <string>

#include "flash_attention.cuh"
#include "unfused_attention_budget.hpp"

namespace attention_unfused {

constexpr int kSoftmaxThreads = 256;
constexpr int kMaxVecPerThread = 8;  // float4s of a row a thread holds: seq <= 8 x 4 x 256 = 8192
constexpr int kRegisterRowMax = kMaxVecPerThread * 4 * kSoftmaxThreads;

// Max or sum over the block; red[] holds one value per warp.
__device__ __forceinline__ float softmax_block_reduce(float x, bool is_max, float* red) {
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
}

// Four scores starting at key `col` with the keys after the query masked out (causal).
template <bool kCausal>
__device__ __forceinline__ float4 masked(float4 v, int col, int query) {
  if (kCausal) {
    if (col + 0 > query) v.x = -INFINITY;
    if (col + 1 > query) v.y = -INFINITY;
    if (col + 2 > query) v.z = -INFINITY;
    if (col + 3 > query) v.w = -INFINITY;
  }
  return v;
}

__device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }
__device__ __forceinline__ float4 exp4(float4 v, float mx) {
  return make_float4(expf(v.x - mx), expf(v.y - mx), expf(v.z - mx), expf(v.w - mx));
}
__device__ __forceinline__ uint2 bf16x4(float4 v, float inv) {
  const __nv_bfloat162 lo = __floats2bfloat162_rn(v.x * inv, v.y * inv);
  const __nv_bfloat162 hi = __floats2bfloat162_rn(v.z * inv, v.w * inv);
  return make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
}

// One block per row of S: the row (16 KiB at seq 4096) stays in registers between max, sum and write.
// Rows of at most kRegisterRowMax keys.
template <bool kCausal>
__global__ void __launch_bounds__(kSoftmaxThreads)
softmax_rows_kernel(const float* __restrict__ s, __nv_bfloat16* __restrict__ p, int seq) {
  const int64_t row = blockIdx.x;
  const int query = static_cast<int>(row % seq);
  const float4* in = reinterpret_cast<const float4*>(s + row * seq);
  __shared__ float red[kSoftmaxThreads / 32];
  float4 v[kMaxVecPerThread];
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    const int col = (i * kSoftmaxThreads + threadIdx.x) * 4;
    v[i] = col < seq ? masked<kCausal>(in[col / 4], col, query) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    mx = fmaxf(mx, max4(v[i]));
  }
  mx = softmax_block_reduce(mx, true, red);  // finite: key 0 is never masked
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    v[i] = exp4(v[i], mx);
    sum += (v[i].x + v[i].y) + (v[i].z + v[i].w);
  }
  const float inv = 1.0f / softmax_block_reduce(sum, false, red);
  uint2* out = reinterpret_cast<uint2*>(p + row * seq);
#pragma unroll
  for (int i = 0; i < kMaxVecPerThread; ++i) {
    const int col = (i * kSoftmaxThreads + threadIdx.x) * 4;
    if (col >= seq) break;
    out[col / 4] = bf16x4(v[i], inv);
  }
}

// Rows longer than the register path holds: the same arithmetic with the row cached in dynamic shared
// memory (seq x 4 B), so S is still read once - as a framework's softmax does for a row that fits in
// shared memory. Never a partial row: the launcher refuses lengths that do not fit (unfused_budget).
template <bool kCausal>
__global__ void __launch_bounds__(kSoftmaxThreads)
    softmax_long_rows_kernel(const float* __restrict__ s, __nv_bfloat16* __restrict__ p, int seq) {
  extern __shared__ float4 row_cache[];
  __shared__ float red[kSoftmaxThreads / 32];
  const int64_t row = blockIdx.x;
  const int query = static_cast<int>(row % seq), vecs = seq / 4;
  const float4* in = reinterpret_cast<const float4*>(s + row * seq);
  float mx = -INFINITY;
  for (int c = threadIdx.x; c < vecs; c += kSoftmaxThreads) {
    row_cache[c] = masked<kCausal>(in[c], c * 4, query);
    mx = fmaxf(mx, max4(row_cache[c]));
  }
  mx = softmax_block_reduce(mx, true, red);
  float sum = 0;
  for (int c = threadIdx.x; c < vecs; c += kSoftmaxThreads) {  // each thread rereads only what it wrote
    const float4 e = exp4(row_cache[c], mx);
    row_cache[c] = e;
    sum += (e.x + e.y) + (e.z + e.w);
  }
  const float inv = 1.0f / softmax_block_reduce(sum, false, red);
  uint2* out = reinterpret_cast<uint2*>(p + row * seq);
  for (int c = threadIdx.x; c < vecs; c += kSoftmaxThreads) out[c] = bf16x4(row_cache[c], inv);
}

// setup(), before S and P are allocated: throws when a row of `seq` keys cannot be held or when S and P of
// bh heads (plus `other_bytes` the caller is about to allocate) exceed the free device memory - each with
// its numbers (unfused_budget) - and opts the long-row kernel into the shared memory it needs.
template <bool kCausal>
void prepare_unfused_attention(int64_t bh, int64_t seq, double other_bytes, const char* pair) {
  int device = 0, max_smem = 0;
  AISP_CUDA_CHECK(cudaGetDevice(&device));
  AISP_CUDA_CHECK(cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  std::string why = unfused_budget::row_problem(seq, kRegisterRowMax, max_smem);
  if (why.empty()) {
    size_t free_bytes = 0, total_bytes = 0;
    AISP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    why = unfused_budget::memory_shortfall(bh, seq, other_bytes, double(free_bytes), double(total_bytes));
  }
  if (!why.empty()) throw std::runtime_error(std::string(pair) + ": " + why);
  if (seq > kRegisterRowMax)
    AISP_CUDA_CHECK(cudaFuncSetAttribute(softmax_long_rows_kernel<kCausal>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(seq * sizeof(float))));
}

// P = softmax(S) over `rows` rows of `seq` keys (row r is query r % seq of its head).
template <bool kCausal>
void launch_softmax_rows(const float* s, __nv_bfloat16* p, int64_t rows, int seq, cudaStream_t stream) {
  const auto grid = static_cast<unsigned>(rows);
  if (seq <= kRegisterRowMax) softmax_rows_kernel<kCausal><<<grid, kSoftmaxThreads, 0, stream>>>(s, p, seq);
  else softmax_long_rows_kernel<kCausal><<<grid, kSoftmaxThreads, seq * sizeof(float), stream>>>(s, p, seq);
  AISP_LAUNCH_CHECK();
}

template <bool kCausal>
class UnfusedAttention : public FlashAttentionPair<kCausal> {
 protected:
  void setup_variant(aisp::Context& ctx) override {
    const int64_t seq = ctx.param("seq"), bh = this->batch_heads(ctx);
    prepare_unfused_attention<kCausal>(bh, seq, 0.0, "flash_attention baseline");
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
    launch_softmax_rows<kCausal>(s_, p_, static_cast<int64_t>(bh) * seq, seq, ctx.stream());
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
