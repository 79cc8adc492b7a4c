// A CUDA-core FP32 GEMM templated on its tile shape, for autotuned_tiles. C[M][N] = A[M][K] * B[K][N], all
// row-major. A block computes a BM x BN tile of C with (BM/TM) x (BN/TN) threads, each TM x TN outputs held
// in registers, staging BK = 8 columns of A and rows of B per step through shared memory. A thread's
// outputs are strided by the thread grid (rows ty + i*BM/TM, columns tx + j*BN/TN), so shared-memory reads
// broadcast or hit distinct banks and the stores coalesce.
// Every output is accumulated by one thread with fmaf over k = 0, 1, ..., K-1 in order, whatever the tile
// shape: all configurations produce the same bits.
#pragma once
#include <cstdint>

namespace {

inline constexpr int kSgemmBK = 8;

template <int BM, int BN, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_tile_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n, int k) {
  constexpr int kThreads = (BM / TM) * (BN / TN), kRowStep = BM / TM, kColStep = BN / TN;
  static_assert((BM * kSgemmBK) % kThreads == 0 && (BN * kSgemmBK) % kThreads == 0, "whole tiles per thread");
  __shared__ float as[kSgemmBK][BM];
  __shared__ float bs[kSgemmBK][BN];
  const int tid = threadIdx.x, tx = tid % kColStep, ty = tid / kColStep;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < k; k0 += kSgemmBK) {
#pragma unroll
    for (int i = tid; i < BM * kSgemmBK; i += kThreads)
      as[i % kSgemmBK][i / kSgemmBK] = a[int64_t(m0 + i / kSgemmBK) * k + k0 + i % kSgemmBK];
#pragma unroll
    for (int i = tid; i < BN * kSgemmBK; i += kThreads)
      bs[i / BN][i % BN] = b[int64_t(k0 + i / BN) * n + n0 + i % BN];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSgemmBK; ++kk) {
      float av[TM], bv[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) av[i] = as[kk][ty + i * kRowStep];
#pragma unroll
      for (int j = 0; j < TN; ++j) bv[j] = bs[kk][tx + j * kColStep];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) c[int64_t(m0 + ty + i * kRowStep) * n + n0 + tx + j * kColStep] = acc[i][j];
}

}  // namespace

// One tile configuration: its shape and a launcher.
struct SgemmConfig {
  int bm, bn, tm, tn;
  void (*launch)(const float*, const float*, float*, int m, int n, int k, cudaStream_t);
  const char* name;
};

template <int BM, int BN, int TM, int TN>
void launch_sgemm_tile(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t s) {
  sgemm_tile_kernel<BM, BN, TM, TN><<<dim3(n / BN, m / BM), (BM / TM) * (BN / TN), 0, s>>>(a, b, c, n, k);
}
