// The warp-level tensor-core GEMM of ch10 (mma.sync.m16n8k16 BF16 -> FP32, fragments from ldmatrix), as a
// template over how shared memory is filled:
//   kStages = 1, kAsync = false  synchronous: every thread loads 16 B of A and B into registers, stores them
//                                to shared memory, barrier, compute, barrier (load and math never overlap)
//   kStages = S, kAsync = true   a ring of S slots filled with cp.async (global -> shared without registers);
//                                the slot for K-tile kt + S - 1 is requested before computing K-tile kt
// Used by optimized_gemm_tiled_mma_sync.cu (4 stages) and the double_buffered_pipeline pair (1 sync stage vs
// 2 cp.async stages). C[M][N] = A[M][K] * B[N][K]^T, all row-major BF16 (gemm_sm90.cuh's convention).
// CTA tile 128 x 128 x 32, 8 warps as 2 (M) x 4 (N), 64 x 32 per warp = 4 x 4 mma tiles of 16 x 8, 64 FP32
// accumulators per thread. A shared row is 32 BF16 = 64 B = four 16-byte chunks; one ldmatrix 8x8 matrix
// reads the same chunk of 8 consecutive rows, and how those 8 addresses fall on the 8 16-byte bank groups
// of a 128-byte line is the kSmem switch (the smem_swizzle pair compares them):
//   Smem::padded    rows padded to 40 BF16 (80 B): 0, 80, 160, ... mod 128 hit 8 distinct groups
//   Smem::plain     rows packed at 64 B: rows r and r + 2 share a group, a 4-way bank conflict per ldmatrix
//   Smem::swizzled  rows packed at 64 B, chunk c of row r stored at chunk c ^ ((r / 2) % 4): 8 distinct
//                   groups again, with no padding (the XOR layout TMA's 128-byte swizzle and CUTLASS use)
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace mma_gemm {

constexpr int kBM = 128, kBN = 128, kBK = 32, kThreads = 256;

enum class Smem { padded, plain, swizzled };

// Where 16-byte chunk `chunk` (0..3) of tile row `row` lives, in elements from the tile's start.
template <Smem kSmem>
struct Layout {
  static constexpr int kPitch = kSmem == Smem::padded ? kBK + 8 : kBK;
  static constexpr int kTileElems = kBM * kPitch;  // one operand tile of one stage (kBM == kBN)
  __device__ __forceinline__ static int at(int row, int chunk) {
    if constexpr (kSmem == Smem::swizzled) return row * kPitch + ((chunk ^ ((row >> 1) & 3)) << 3);
    return row * kPitch + (chunk << 3);
  }
};
template <Smem kSmem = Smem::padded>
constexpr int smem_bytes(int stages) { return stages * 2 * Layout<kSmem>::kTileElems * 2; }

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async_16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(p)));
}
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <int kStages, bool kAsync, Smem kSmem>
__global__ void __launch_bounds__(kThreads)
    gemm_mma_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                    __nv_bfloat16* __restrict__ c, int M, int N, int K) {
  static_assert(kAsync || kStages == 1, "the synchronous variant has one slot");
  using L = Layout<kSmem>;
  constexpr int kTileElems = L::kTileElems;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __nv_bfloat16* sA = reinterpret_cast<__nv_bfloat16*>(smem_raw);  // [kStages][kBM][pitch]
  __nv_bfloat16* sB = sA + kStages * kTileElems;                    // [kStages][kBN][pitch]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int warp_m = warp / 4, warp_n = warp % 4;
  // Grouped raster over 128 x 128 tiles (8 tile-rows per group) for L2 reuse, as the wgmma kernels do.
  const int tiles_m = M / kBM, tiles_n = N / kBN, per_group = 8 * tiles_n;
  const int first_m = (blockIdx.x / per_group) * 8;
  const int rows = tiles_m - first_m < 8 ? tiles_m - first_m : 8;
  const int m0 = (first_m + (blockIdx.x % per_group) % rows) * kBM;
  const int n0 = ((blockIdx.x % per_group) / rows) * kBN;
  const int k_tiles = K / kBK;

  // Each thread moves 2 16-byte chunks of A and 2 of B per K-tile: chunk q -> row q / 4, k (q % 4) * 8.
  auto src_a = [&](int q, int kt) { return a + static_cast<int64_t>(m0 + q / 4) * K + kt * kBK + (q % 4) * 8; };
  auto src_b = [&](int q, int kt) { return b + static_cast<int64_t>(n0 + q / 4) * K + kt * kBK + (q % 4) * 8; };
  auto dst = [&](__nv_bfloat16* base, int slot, int q) { return base + slot * kTileElems + L::at(q / 4, q % 4); };
  auto load_async = [&](int slot, int kt) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int q = tid + i * kThreads;
      cp_async_16(dst(sA, slot, q), src_a(q, kt));
      cp_async_16(dst(sB, slot, q), src_b(q, kt));
    }
  };

  float acc[4][4][4] = {};
  auto compute = [&](int slot) {
    const __nv_bfloat16* tA = sA + slot * kTileElems;
    const __nv_bfloat16* tB = sB + slot * kTileElems;
#pragma unroll
    for (int ks = 0; ks < kBK / 16; ++ks) {
      uint32_t af[4][4], bf[2][4];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)  // 16x16 A block: lanes 0-15 rows 0-15 at k 0, lanes 16-31 at k 8
        ldmatrix_x4(af[mi], tA + L::at(warp_m * 64 + mi * 16 + lane % 16, ks * 2 + lane / 16));
#pragma unroll
      for (int nj = 0; nj < 2; ++nj)  // two 8-column B blocks: {n0-7 k0-7, n0-7 k8-15, n8-15 k0-7, n8-15 k8-15}
        ldmatrix_x4(bf[nj], tB + L::at(warp_n * 32 + nj * 16 + lane % 8 + (lane / 16) * 8, ks * 2 + (lane / 8) % 2));
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
          mma_16816(acc[mi][ni], af[mi], bf[ni / 2][(ni % 2) * 2], bf[ni / 2][(ni % 2) * 2 + 1]);
    }
  };

  if constexpr (kAsync) {
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles) load_async(s, s);
      cp_async_commit();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      cp_async_wait<kStages - 2>();  // K-tile kt has landed (this thread's copies) ...
      __syncthreads();               // ... for every thread, and slot (kt-1) % kStages is no longer read
      const int next = kt + kStages - 1;
      if (next < k_tiles) load_async(next % kStages, next);
      cp_async_commit();  // an empty group at the tail keeps the wait count above uniform
      compute(kt % kStages);
    }
  } else {
    for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int q = tid + i * kThreads;
        const uint4 va = *reinterpret_cast<const uint4*>(src_a(q, kt));
        const uint4 vb = *reinterpret_cast<const uint4*>(src_b(q, kt));
        *reinterpret_cast<uint4*>(dst(sA, 0, q)) = va;
        *reinterpret_cast<uint4*>(dst(sB, 0, q)) = vb;
      }
      __syncthreads();
      compute(0);
      __syncthreads();
    }
  }

#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      const int row = m0 + warp_m * 64 + mi * 16 + lane / 4;
      const int col = n0 + warp_n * 32 + ni * 8 + (lane % 4) * 2;
      *reinterpret_cast<__nv_bfloat162*>(c + static_cast<int64_t>(row) * N + col) =
          __floats2bfloat162_rn(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<__nv_bfloat162*>(c + static_cast<int64_t>(row + 8) * N + col) =
          __floats2bfloat162_rn(acc[mi][ni][2], acc[mi][ni][3]);
    }
}

// One launch of the (kStages, kAsync, kSmem) kernel on `stream`; the dynamic shared-memory limit is raised once.
template <int kStages, bool kAsync, Smem kSmem = Smem::padded>
struct MmaGemm {
  static constexpr auto kernel = gemm_mma_kernel<kStages, kAsync, kSmem>;
  static constexpr int kSmemBytes = smem_bytes<kSmem>(kStages);
  static void prepare() {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }
  static void launch(cudaStream_t stream, const void* a, const void* b, void* c, int64_t m, int64_t n, int64_t k) {
    const unsigned grid = static_cast<unsigned>((m / kBM) * (n / kBN));
    kernel<<<grid, kThreads, kSmemBytes, stream>>>(static_cast<const __nv_bfloat16*>(a),
                                                            static_cast<const __nv_bfloat16*>(b),
                                                            static_cast<__nv_bfloat16*>(c), static_cast<int>(m),
                                                            static_cast<int>(n), static_cast<int>(k));
  }
};

}  // namespace mma_gemm
