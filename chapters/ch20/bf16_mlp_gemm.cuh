// bf16_mlp_gemm: the GEMM kernel of the bf16_mlp pair (baseline and fused variants alike), ch10's persistent
// warp-specialized wgmma + TMA kernel (gemm_ws_kernel.cuh: same 4-stage / 64-wide K ring, same m64n256k16
// wgmma, same grouped raster, same release discipline) with two changes that both sides of the pair get:
//
// 1. Row-chunk epilogues. ch10's epilogue stores two neighbouring columns per call: 64 warp-wide 4-byte (or,
//    fused, 2-byte) stores per thread and tile, each touching 8 rows, ~4096 L1 wavefronts per tile (~2 us of
//    a ~18 us tile at K = 1536, while the tensor cores wait). Here the weights' rows (= the GEMM's output
//    columns) are permuted once in setup() so that each thread's accumulators are whole 16-byte runs of the
//    natural output row: 8 x 16-byte stores per thread and 8-row group (plain/residual) or 4 (SwiGLU, half as
//    many outputs), 8x fewer store instructions. The permutation is a static weight layout (as a serving
//    engine packs its weights once); outputs are in natural order, nothing else changes.
//      plain store    GEMM column n*256 + 8j + 2q + e holds output column n*256 + 32(j/4) + 8q + 2(j%4) + e
//      SwiGLU         GEMM column n*256 + 8j + 2q + e holds (e ? up : gate) of h column n*128 + 32(j/8) + 8q + j%8
//    (j = 0..31 the accumulator pair index, q = lane % 4, e = 0/1 the pair member: wgmma's m64n256 layout.)
// 2. kPingPong (optional): the two consumer warpgroups take *different* 64 x 256 tiles (alternate tiles of the
//    CTA's sequence) from one shared ring, so one warpgroup's epilogue runs while the other's main loop keeps
//    the tensor cores busy (CUTLASS's "ping-pong" schedule). The ring order serializes the two main loops by
//    itself: tile i+1's K-tiles are loaded only as tile i's slots free up. Per stage A is 64 x 64, B 256 x 64
//    (40 KiB, 5 stages); with kCluster = 2 the CTA pair (vertical neighbours) shares B by TMA multicast, which
//    brings the L2 -> SM traffic per FLOP back to the cooperative 128 x 256 tile's.
//    kPingPong = false is the cooperative schedule of ch10 (both warpgroups on one 128 x 256 tile).
// Measured (H200, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5`; README): the 16-byte-run
// epilogues took the unfused MLP from 1.108 to 0.973 ms and the fused one from 1.071 to 0.889 ms on the
// cooperative schedule; ping-pong was 2-5% slower than cooperative for both, ping-pong + multicast another ~5%.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "../ch10/gemm_sm90.cuh"
#include "../ch10/gemm_ws_kernel.cuh"  // ch10's tile shape and ring (constants only; its kernel is not instantiated here)

// What is ch10's and what is not. The pieces that are the same are taken from ch10: the PTX building blocks
// (gemm_sm90.cuh: mbarriers, TMA loads, wgmma, descriptors, grouped raster, tensor maps) and the tile shape
// (ws_gemm::kBN, kBK, kThreads, kGroupM; the cooperative schedule's kBM and kStages). ch10's kernel itself
// (ws_gemm::gemm_ws_kernel) cannot be instantiated with these epilogues, so mlp_gemm_kernel below restates its
// producer loop, K-step and slot release (the same instruction sequence as gemm_ws_kernel.cuh) and differs in:
//   - the epilogue contract: ch10 calls its epilogue once per accumulator pair, epi(row, col, v0, v1), which
//     can only store 2 neighbouring columns; the row-chunk epilogues here take the thread's whole 128-float
//     fragment, epi(acc, r, col0, q), so that 8 accumulators of one row become one 16-byte store (with the
//     weights' rows permuted in setup(); see the header comment, change 1);
//   - the schedule: kPP gives each consumer warpgroup its own 64-row tile with a 5-stage ring and named
//     barriers between the two main loops, so the tile height and ring depth depend on the schedule (Cfg<kPP>),
//     where ch10's are namespace constants (change 2).
// Gemm's host side (cluster occupancy, launch attributes) likewise restates ws_gemm::WsGemm's for this kernel
// and Cfg<kPP>'s shared memory size; WsGemm's members are bound to its own kernel.

namespace mlp_gemm {

constexpr int kBN = ws_gemm::kBN, kBK = ws_gemm::kBK, kThreads = ws_gemm::kThreads, kGroupM = ws_gemm::kGroupM;

template <bool kPP>
struct Cfg {
  static constexpr int kBM = kPP ? 64 : ws_gemm::kBM;  // rows of one tile (= of one A box)
  static constexpr int kStages = kPP ? 5 : ws_gemm::kStages;
  static constexpr uint32_t kABytes = kBM * kBK * 2, kBBytes = kBN * kBK * 2, kStageBytes = kABytes + kBBytes;
  static constexpr int kSmemBytes = 1024 + kStages * kStageBytes + 2 * kStages * 8;
  static_assert(kSmemBytes <= 227 * 1024, "shared memory");
};

// ---- permutations of the weights' rows (host and device; src row of permuted row p) ----
__host__ __device__ inline int64_t store_src_row(int64_t p) {
  const int64_t n = p / 256;
  const int c = static_cast<int>(p % 256), j = c / 8, q = (c % 8) / 2, e = c % 2;
  return n * 256 + 32 * (j / 4) + 8 * q + 2 * (j % 4) + e;
}
// Row p of the packed [2f][d] gate/up weights: h column returned, *up = whether it is Wu's row (else Wg's).
__host__ __device__ inline int64_t swiglu_src_row(int64_t p, int* up) {
  const int64_t n = p / 256;
  const int c = static_cast<int>(p % 256), j = c / 8, q = (c % 8) / 2, e = c % 2;
  *up = e;
  return n * 128 + 32 * (j / 8) + 8 * q + (j % 8);
}

// out[p][:] = a[store_src_row(p)][:] (b == nullptr) or (up ? b : a)[swiglu_src_row(p)][:]; k % 8 == 0.
__global__ void permute_rows(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b, int64_t rows, int k,
                             __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int per_row = k / 8;
  if (i >= rows * per_row) return;
  const int64_t p = i / per_row, c = i % per_row;
  int up = 0;
  const int64_t src = b ? swiglu_src_row(p, &up) : store_src_row(p);
  const __nv_bfloat16* row = (up ? b : a) + src * k;
  reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(row)[c];
}
inline void launch_permute_rows(cudaStream_t st, const __nv_bfloat16* a, const __nv_bfloat16* b, int64_t rows, int k,
                                __nv_bfloat16* out) {
  permute_rows<<<static_cast<unsigned>((rows * (k / 8) + 255) / 256), 256, 0, st>>>(a, b, rows, k, out);
  AISP_LAUNCH_CHECK();
}

__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

// ---- epilogues: called once per tile with the thread's 128 accumulators; r = its first row (r and r + 8),
// col0 = the tile's first GEMM column, q = lane % 4. ----

// c[r][:] = bf16(acc), weights permuted with store_src_row.
struct RowStore {
  __nv_bfloat16* c;
  int ldc;
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int q) const {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      __nv_bfloat16* row = c + static_cast<int64_t>(r + 8 * h) * ldc + col0 + 8 * q;
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        uint4 v;
        v.x = pack_bf16x2(acc[4 * (4 * k + 0) + 2 * h], acc[4 * (4 * k + 0) + 2 * h + 1]);
        v.y = pack_bf16x2(acc[4 * (4 * k + 1) + 2 * h], acc[4 * (4 * k + 1) + 2 * h + 1]);
        v.z = pack_bf16x2(acc[4 * (4 * k + 2) + 2 * h], acc[4 * (4 * k + 2) + 2 * h + 1]);
        v.w = pack_bf16x2(acc[4 * (4 * k + 3) + 2 * h], acc[4 * (4 * k + 3) + 2 * h + 1]);
        *reinterpret_cast<uint4*>(row + 32 * k) = v;
      }
    }
  }
};

// out[r][:] = bf16(acc + residual[r][:]), weights permuted with store_src_row.
struct RowResidual {
  __nv_bfloat16* out;
  const __nv_bfloat16* residual;
  int ld;
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int q) const {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t base = static_cast<int64_t>(r + 8 * h) * ld + col0 + 8 * q;
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        const uint4 rv = *reinterpret_cast<const uint4*>(residual + base + 32 * k);
        const __nv_bfloat162* rh = reinterpret_cast<const __nv_bfloat162*>(&rv);
        uint32_t w[4];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          const float2 x = __bfloat1622float2(rh[p]);
          w[p] = pack_bf16x2(acc[4 * (4 * k + p) + 2 * h] + x.x, acc[4 * (4 * k + p) + 2 * h + 1] + x.y);
        }
        *reinterpret_cast<uint4*>(out + base + 32 * k) = make_uint4(w[0], w[1], w[2], w[3]);
      }
    }
  }
};

// h[r][:] = bf16(silu(gate) * up), packed gate/up weights from swiglu_src_row; h has ld = ffn columns.
template <class Act>
struct RowSwiGlu {
  __nv_bfloat16* h;
  int ld;
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int q) const {
    const Act act{};
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      __nv_bfloat16* row = h + static_cast<int64_t>(r + 8 * hh) * ld + col0 / 2 + 8 * q;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        uint32_t w[4];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          const int j0 = 8 * k + 2 * p, j1 = j0 + 1;
          w[p] = pack_bf16x2(act(acc[4 * j0 + 2 * hh]) * acc[4 * j0 + 2 * hh + 1],
                             act(acc[4 * j1 + 2 * hh]) * acc[4 * j1 + 2 * hh + 1]);
        }
        *reinterpret_cast<uint4*>(row + 32 * k) = make_uint4(w[0], w[1], w[2], w[3]);
      }
    }
  }
};

// Named barriers 1 and 2 (0 is __syncthreads'): 128 threads of one consumer warpgroup sync, 128 of the other arrive.
__device__ __forceinline__ void named_sync(int id) { asm volatile("bar.sync %0, 256;\n" ::"r"(id) : "memory"); }
__device__ __forceinline__ void named_arrive(int id) { asm volatile("bar.arrive %0, 256;\n" ::"r"(id) : "memory"); }

template <bool kPP, int kCluster, class Epi>
__global__ void __launch_bounds__(kThreads, 1)
    mlp_gemm_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, Epi epi, int M, int N,
                    int K) {
  using C = Cfg<kPP>;
  constexpr int kConsumersPerSlot = kPP ? 1 : 2;  // warpgroups that read one slot, per CTA
  extern __shared__ unsigned char smem_raw[];
  const sm90::GemmRing ring = sm90::carve_gemm_ring(smem_raw, C::kStages, C::kABytes, C::kStageBytes);
  __nv_bfloat16* sA = ring.a;
  __nv_bfloat16* sB = ring.b;
  uint64_t* full = ring.full;
  uint64_t* empty = ring.empty;

  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const uint32_t rank = kCluster > 1 ? sm90::cluster_ctarank() : 0;
  const int tiles_m = M / C::kBM, tiles_n = N / kBN, k_tiles = K / kBK;
  const int units = (tiles_m / kCluster) * tiles_n;
  const int first_unit = blockIdx.x / kCluster, unit_stride = gridDim.x / kCluster;

  if (threadIdx.x == 0) {
    for (int s = 0; s < C::kStages; ++s) {
      sm90::mbar_init(&full[s], 1);
      sm90::mbar_init(&empty[s], kConsumersPerSlot * kCluster);
    }
    sm90::mbar_init_fence();
  }
  if constexpr (kCluster > 1) sm90::cluster_sync();
  else __syncthreads();

  if (wg == 0) {
    sm90::setmaxnreg_dec<40>();
    if (t == 0) {
      int it = 0;
      for (int u = first_unit; u < units; u += unit_stride) {
        const sm90::TileCoord tc = sm90::grouped_tile(u, tiles_m / kCluster, tiles_n, kGroupM);
        const int row0 = (tc.m * kCluster + static_cast<int>(rank)) * C::kBM, col0 = tc.n * kBN;
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          const int s = it % C::kStages;
          if (it >= C::kStages) sm90::mbar_wait(&empty[s], ((it / C::kStages) - 1) & 1);
          sm90::mbar_arrive_expect_tx(&full[s], C::kStageBytes);
          sm90::tma_load_2d(sA + s * (C::kBM * kBK), &a_map, kt * kBK, row0, &full[s]);
          if constexpr (kCluster == 1) {
            sm90::tma_load_2d(sB + s * (kBN * kBK), &b_map, kt * kBK, col0, &full[s]);
          } else {
            constexpr int kHalf = kBN / kCluster;
            sm90::tma_load_2d_multicast(sB + s * (kBN * kBK) + rank * (kHalf * kBK), &b_map, kt * kBK,
                                        col0 + static_cast<int>(rank) * kHalf, &full[s], uint16_t((1u << kCluster) - 1));
          }
        }
      }
    }
  } else {
    sm90::setmaxnreg_inc<232>();
    const int cw = wg - 1;
    float acc[128];
    auto release = [&](int s) {
      if (t == 0) {
        if constexpr (kCluster == 1) {
          sm90::mbar_arrive(&empty[s]);
        } else {
#pragma unroll
          for (int c = 0; c < kCluster; ++c) {
            if (c == static_cast<int>(rank)) sm90::mbar_arrive(&empty[s]);
            else sm90::mbar_arrive_cluster(&empty[s], c);
          }
        }
      }
    };
    const int warp = t / 32, lane = t % 32;
    // Cooperative: every unit, rows cw*64.. of the 128-row tile. Ping-pong: units i = cw, cw + 2, ... of the
    // CTA's sequence, whole 64-row tiles; their K-tiles sit at ring positions i * k_tiles ...
    for (int i = kPP ? cw : 0;; i += kPP ? 2 : 1) {
      const int u = first_unit + i * unit_stride;
      if (u >= units) break;
      const sm90::TileCoord tc = sm90::grouped_tile(u, tiles_m / kCluster, tiles_n, kGroupM);
      const int row0 = (tc.m * kCluster + static_cast<int>(rank)) * C::kBM + (kPP ? 0 : cw * 64);
      const int col0 = tc.n * kBN;
      const int a_off = kPP ? 0 : cw * (64 * kBK);
#pragma unroll
      for (int x = 0; x < 128; ++x) acc[x] = 0.0f;
      // Ping-pong order: tile i's main loop starts only after the other warpgroup has passed every wait of
      // tile i - 1's main loop. Without it this warpgroup would wait on ring positions more than one phase
      // ahead of their barriers (the parity wait cannot tell those apart), and the main loops would interleave.
      if (kPP && i > 0) named_sync(1 + cw);
      int it = i * k_tiles, prev = -1;
      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = it % C::kStages;
        sm90::mbar_wait(&full[s], (it / C::kStages) & 1);
        sm90::wgmma_ktile_m64n256(acc, sA + s * (C::kBM * kBK) + a_off, sB + s * (kBN * kBK));
        sm90::wgmma_wait<1>();
        sm90::fence_operands(acc);
        if (prev >= 0) release(prev);
        prev = s;
      }
      // Hand the tensor cores to the other warpgroup (only if it has a tile i + 1: arrivals stay balanced).
      if (kPP && first_unit + (i + 1) * unit_stride < units) named_arrive(2 - cw);
      sm90::wgmma_wait<0>();
      sm90::fence_operands(acc);
      if (prev >= 0) release(prev);
      epi(acc, row0 + warp * 16 + lane / 4, col0, lane % 4);
    }
  }
  if constexpr (kCluster > 1) sm90::cluster_sync();
}

template <bool kPP, int kCluster, class Epi>
struct Gemm {
  using C = Cfg<kPP>;
  static constexpr auto kernel = mlp_gemm_kernel<kPP, kCluster, Epi>;
  CUtensorMap a_map{}, b_map{};
  const void* a_for = nullptr;
  const void* b_for = nullptr;
  int grid = 0;

  void prepare(const aisp::DeviceInfo& dev, int64_t m, int64_t n, int64_t k) {
    if (m % (C::kBM * kCluster) || n % kBN || k % kBK)
      throw std::runtime_error("bf16_mlp gemm: needs m % " + std::to_string(C::kBM * kCluster) + ", n % 256, k % 64 == 0");
    AISP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes));
    const int units = static_cast<int>((m / (C::kBM * kCluster)) * (n / kBN));
    int resident = dev.sm_count > 0 ? dev.sm_count : 132;
    if (kCluster > 1) {
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(static_cast<unsigned>(units * kCluster));
      cfg.blockDim = dim3(kThreads);
      cfg.dynamicSmemBytes = C::kSmemBytes;
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = kCluster;
      attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      int clusters = 0;
      AISP_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
      if (clusters <= 0) throw std::runtime_error("bf16_mlp gemm: no 2-CTA cluster fits on this device");
      resident = clusters * kCluster;
    }
    grid = std::min(resident, units * kCluster);
  }

  void launch(cudaStream_t stream, const void* a, const void* b, Epi epi, int64_t m, int64_t n, int64_t k) {
    if (a != a_for) a_map = sm90::encode_kmajor_bf16(a, m, k, C::kBM), a_for = a;
    if (b != b_for) b_map = sm90::encode_kmajor_bf16(b, n, k, kBN / kCluster), b_for = b;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(grid));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = C::kSmemBytes;
    cfg.stream = stream;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = kCluster;
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = kCluster > 1 ? 1 : 0;
    AISP_CUDA_CHECK(
        cudaLaunchKernelEx(&cfg, kernel, a_map, b_map, epi, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k)));
  }
};

}  // namespace mlp_gemm
