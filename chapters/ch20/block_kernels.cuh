// Small memory-bound kernels and GEMM epilogues the ch20 transformer pairs share. Everything here is
// bf16 storage with fp32 math; row-major [tokens][features] unless a comment says otherwise.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace block {

constexpr int kHeadDim = 128;
constexpr float kRmsEps = 1e-6f;

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// 8 bf16 <-> 8 floats through one 16-byte word.
__device__ __forceinline__ void unpack8(uint4 v, float (&f)[8]) {
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 t = __bfloat1622float2(h[i]);
    f[2 * i] = t.x, f[2 * i + 1] = t.y;
  }
}
__device__ __forceinline__ uint4 pack8(const float (&f)[8]) {
  uint4 v;
  __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) h[i] = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
  return v;
}

// silu(x) = x sigmoid(x) with fast-math intrinsics: __expf (ex2.approx) and __fdividef (rcp.approx + mul),
// two MUFU ops and ~6 instructions instead of an IEEE division's ~20 (it matters in a GEMM epilogue, where
// it does not overlap the tensor cores). Error: a few fp32 ulps; for x < -87, exp(-x) > 2^126 and the
// result is 0 (the true value is below 1e-36). Used by both sides of bf16_mlp.
__device__ __forceinline__ float silu(float x) { return __fdividef(x, 1.0f + __expf(-x)); }

// This lane's share of sum(x^2) over one row `xr` of `dim` bf16 that a warp reads 8 values (16 bytes) per
// lane at a time; warp_sum() of it is the row's sum. Every RMSNorm of the ch20 blocks starts with it.
__device__ __forceinline__ float row_sumsq_lane(const uint4* __restrict__ xr, int dim, int lane) {
  float ss = 0.0f;
  for (int c = lane; c < dim / 8; c += 32) {
    float f[8];
    unpack8(xr[c], f);
#pragma unroll
    for (int i = 0; i < 8; ++i) ss = fmaf(f[i], f[i], ss);
  }
  return ss;
}

// One warp per row of `dim` (a multiple of 256): rstd[row] = 1 / sqrt(mean(x^2) + eps).
__global__ void row_rstd(const __nv_bfloat16* __restrict__ x, int64_t rows, int dim, float* __restrict__ rstd) {
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float ss = warp_sum(row_sumsq_lane(reinterpret_cast<const uint4*>(x + row * dim), dim, lane));
  if (lane == 0) rstd[row] = rsqrtf(ss / dim + kRmsEps);
}

inline void launch_row_rstd(cudaStream_t s, const __nv_bfloat16* x, int64_t rows, int dim, float* rstd) {
  row_rstd<<<static_cast<unsigned>((rows * 32 + 255) / 256), 256, 0, s>>>(x, rows, dim, rstd);
  AISP_LAUNCH_CHECK();
}

// [batch*heads][seq][128] (attention's layout) -> [batch*seq][heads*128] (the next GEMM's rows).
__global__ void merge_heads(const __nv_bfloat16* __restrict__ o, int64_t tokens, int seq, int heads,
                            __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;  // 16-byte chunk of out
  const int per_row = heads * kHeadDim / 8;
  if (i >= tokens * per_row) return;
  const int64_t t = i / per_row;
  const int c = static_cast<int>(i % per_row), h = c / (kHeadDim / 8), d8 = c % (kHeadDim / 8);
  const int64_t b = t / seq, s = t % seq;
  reinterpret_cast<uint4*>(out)[i] =
      reinterpret_cast<const uint4*>(o + ((b * heads + h) * seq + s) * kHeadDim)[d8];
}

inline void launch_merge_heads(cudaStream_t st, const __nv_bfloat16* o, int64_t tokens, int seq, int heads,
                               __nv_bfloat16* out) {
  const int64_t chunks = tokens * heads * kHeadDim / 8;
  merge_heads<<<static_cast<unsigned>((chunks + 255) / 256), 256, 0, st>>>(o, tokens, seq, heads, out);
  AISP_LAUNCH_CHECK();
}

// w_out[n][k] = bf16(w[n][k] * gain[k]): an RMSNorm gain folded into the next layer's weights (setup only).
__global__ void fold_gain(const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ gain, int64_t rows,
                          int k, __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= rows * k) return;
  out[i] = __float2bfloat16_rn(__bfloat162float(w[i]) * __bfloat162float(gain[i % k]));
}

inline void launch_fold_gain(cudaStream_t s, const __nv_bfloat16* w, const __nv_bfloat16* gain, int64_t rows, int k,
                             __nv_bfloat16* out) {
  fold_gain<<<static_cast<unsigned>((rows * k + 255) / 256), 256, 0, s>>>(w, gain, rows, k, out);
  AISP_LAUNCH_CHECK();
}

// The fused blocks' activations (every optimized variant's): the two norms' per-token rstd, q/k/v/o per head
// ([batch*heads][seq][128]), o merged to [token][dim] (only for an out-projection that reads that layout),
// a = x + attention (the residual stream) and h = GELU(up projection).
struct FusedActivations {
  float *rstd1 = nullptr, *rstd2 = nullptr;
  __nv_bfloat16 *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr, *om = nullptr, *a = nullptr, *h = nullptr;
};

inline FusedActivations alloc_fused_activations(aisp::Context& ctx, int64_t tokens, int64_t dim, int64_t ffn,
                                                bool merged_heads) {
  auto bf16 = [&](const char* name, int64_t count) {
    return static_cast<__nv_bfloat16*>(ctx.scratch(name, static_cast<size_t>(count) * sizeof(__nv_bfloat16)));
  };
  FusedActivations x;
  x.rstd1 = static_cast<float*>(ctx.scratch("rstd1", static_cast<size_t>(tokens) * sizeof(float)));
  x.rstd2 = static_cast<float*>(ctx.scratch("rstd2", static_cast<size_t>(tokens) * sizeof(float)));
  x.q = bf16("q", tokens * dim);
  x.k = bf16("k", tokens * dim);
  x.v = bf16("v", tokens * dim);
  x.o = bf16("o", tokens * dim);
  if (merged_heads) x.om = bf16("o_merged", tokens * dim);
  x.a = bf16("a", tokens * dim);
  x.h = bf16("h", tokens * ffn);
  return x;
}

// Row-major C[m][n] = alpha A[m][k] B[n][k]^T through cuBLAS (column-major C^T = B A^T), fp32 accumulation.
inline void cublas_nt(cublasHandle_t h, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k,
                      float alpha = 1.0f) {
  const float beta = 0.0f;
  AISP_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                                 static_cast<int>(k), &alpha, b, CUDA_R_16BF, static_cast<int>(k), a, CUDA_R_16BF,
                                 static_cast<int>(k), &beta, c, CUDA_R_16BF, static_cast<int>(n), CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT));
}

// ---- epilogues for ws_gemm::WsGemm (called with two neighbouring fp32 results (row, col), (row, col+1)) ----

// out = bf16(acc + residual): a projection that adds the residual stream in its epilogue.
struct StoreResidual {
  __nv_bfloat16* out;
  const __nv_bfloat16* residual;
  int ld;
  __device__ __forceinline__ void operator()(int row, int col, float v0, float v1) const {
    const int64_t i = static_cast<int64_t>(row) * ld + col;
    const float2 r = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(residual + i));
    *reinterpret_cast<__nv_bfloat162*>(out + i) = __floats2bfloat162_rn(v0 + r.x, v1 + r.y);
  }
};

}  // namespace block
