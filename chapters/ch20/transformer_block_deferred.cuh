// transformer_block_deferred: the rowstore block (transformer_block_rowstore.cuh: same ops, weights' rows
// permuted once so that every epilogue stores whole 16-byte runs of an output row) with the GEMM epilogues
// taken off the tensor cores' critical path, and the steps toward fewer passes and launch gaps:
//
// 1. Deferred epilogue (kDeferred, per GEMM). On the cooperative schedule both consumer warpgroups run a tile's
//    epilogue while the tensor cores wait (ping-pong, the usual cure, made no difference here: its 64-row tiles
//    read B from L2 twice as often). Here a warpgroup ends a tile's main loop by rounding its 128 fp32
//    accumulators to 64 packed bf16x2 words (about 200 instructions), starts the next tile at once, and does
//    the rest of the epilogue (GELU, residual add, stores) in 16 chunks (one 16-byte run of one row each),
//    one chunk between each of the next tile's first 16 k-tiles' wgmma issue and wait: the chunks run while
//    the asynchronous wgmma group computes. Registers: 128 accumulators (in flight) + 64 packed words + a
//    3-deep ring of residual 16-byte loads (issued two k-tiles ahead of their use, so that the load latency
//    never stalls the warp that issues the next wgmma) fit the consumers' 232. The exact erf GELU stays.
//    Numerics: the packed words are bf16 values, so the rounding points move to the baseline's: the QKV
//    epilogue's is unchanged (q/k/v = bf16(rstd * acc), as before); the projections are rounded to bf16 before
//    the residual add (a = bf16(x + bf16(o Wo^T)), y likewise: the baseline's cuBLAS GEMM + residual kernel);
//    the MLP pre-activation is rounded to bf16 before the GELU (the baseline's GEMM + GELU kernel). Each is
//    half a bf16 ulp of an O(1) value, one of the "intermediates rounded at different points" that the pair's
//    tolerance (transformer_block.cuh) is derived from; nothing is approximated.
// 2. Heads-layout A (kHeadsA, out-projection): the attention writes o as [batch*heads][seq][128]; the
//    out-projection's A tile (128 tokens x 64 of K) always lies inside one head (K = heads * 128, 64 | 128),
//    so the producer loads it from that layout directly: x = k0 % 128, y = ((row0 / seq) * heads + k0 / 128)
//    * seq + row0 % seq of a [batch*heads*seq][128] tensor map. The merge_heads pass (a 25 MiB read and write,
//    13.4 us by Nsight Compute on the H200) and its launch go away; numerics unchanged (it was a copy).
// 3. Programmatic dependent launch (kPdl): every kernel of the block except the flash attention (ch10's, which
//    does not wait on griddepcontrol and so is launched as before) is launched with programmatic stream
//    serialization; each calls griddepcontrol.wait before reading what the previous kernel wrote (the GEMMs
//    after their barrier init, the norm kernels first thing) and launch_dependents as it starts. The next
//    kernel's launch, its CTAs' start and prologue then overlap the previous kernel's tail; the data
//    dependency is kept by the wait (it returns once the previous grid has completed and flushed).
// 4. Branch-free GELU (kPolyGelu, up GEMM): erff evaluates one of two polynomials by |x| (both paths in most
//    warps) plus an exp; gelu_poly below computes the same function to 2^-16 relative (checked over every
//    bf16 input) with 9 FMAs and one ex2. Even deferred, the GELU's instructions share the issue slots and
//    the power budget (the GEMMs run at NVML's sw_power_cap) with the main loop.
// Measured (H200, 2026-11-28 (d), `aisp bench run -t ch20:transformer_block --axis seq=6144,16384 --time-limit 4
// --artifacts-dir /tmp/a --no-db`, two device calls, clocks as found, 19/19 checks for every variant; details in
// docs/measurements/session_20261128d.md, section tblock2): at 6144 / 16384 tokens the rowstore block 1.203 /
// 4.095 ms, changes 1 (all GEMMs) + 2 + 4 (`transformer_block_deferred_heads_polygelu`) 1.127 / 3.828 ms in the same
// call: 1.067x / 1.070x; 2.732x / 4.544x over the baseline. By Nsight Compute at 16384 (kernel times, serialized):
// out-projection 252.8 -> 194.1 us, up 828.4 -> 735.5 us, down 745.6 -> 698.6 us, merge pass 32.8 us -> none, QKV
// and attention unchanged. Change 3 (PDL) measured no gain (0.5-0.8 % slower in both calls).
#pragma once
#include "transformer_block_rowstore.cuh"

namespace tb_deferred {

using namespace block;
using mlp_gemm::kBK;
using mlp_gemm::kBN;
using mlp_gemm::kGroupM;
using mlp_gemm::kThreads;
using mlp_gemm::pack_bf16x2;
using Cfg = mlp_gemm::Cfg<false>;  // the cooperative schedule: 128 x 256 tiles, 4-stage ring
constexpr int kChunks = 16;        // 2 row halves x 8 runs of 8 columns per thread and tile

__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }
__device__ __forceinline__ void pdl_trigger() { asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory"); }

// pk[32 hh + 4 k + p] holds the accumulator pair p of run k (natural columns col0 + 32k + 8q + 2p, +1) of row
// half hh (rows r, r + 8), as bf16x2; chunk c = (hh, k) = (c / 8, c % 8).
__device__ __forceinline__ void pack_scaled(const float (&acc)[128], float s0, float s1, uint32_t (&pk)[64]) {
#pragma unroll
  for (int hh = 0; hh < 2; ++hh)
#pragma unroll
    for (int k = 0; k < 8; ++k)
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const float s = hh ? s1 : s0;
        pk[32 * hh + 4 * k + p] =
            pack_bf16x2(tb_rowstore::run_val(acc, k, p, hh, 0) * s, tb_rowstore::run_val(acc, k, p, hh, 1) * s);
      }
}
__device__ __forceinline__ void pack_plain(const float (&acc)[128], uint32_t (&pk)[64]) {
#pragma unroll
  for (int hh = 0; hh < 2; ++hh)
#pragma unroll
    for (int k = 0; k < 8; ++k)
#pragma unroll
      for (int p = 0; p < 4; ++p)
        pk[32 * hh + 4 * k + p] = pack_bf16x2(tb_rowstore::run_val(acc, k, p, hh, 0), tb_rowstore::run_val(acc, k, p, hh, 1));
}
__device__ __forceinline__ uint4 chunk_word(const uint32_t (&pk)[64], int c) {
  return make_uint4(pk[4 * c], pk[4 * c + 1], pk[4 * c + 2], pk[4 * c + 3]);
}

// Deferred epilogues: row(r) loads per-row data during the main loop, pack() rounds the accumulators after it,
// chunks 0 .. kSync - 1 are done right after pack(), the others under the next tile's k-tiles; prefetch(c)
// issues chunk c's loads into buf[c % 3] two chunks ahead, chunk(c) finishes and stores chunk c.
struct Buf {
  uint4 v[3];
};

// q/k/v = bf16(rstd1 * acc) into [b*heads][seq][128] (as tb_rowstore::RowQkv, same rounding).
struct DQkv {
  static constexpr int kSync = 0;
  __nv_bfloat16 *q, *k, *v;
  const float* rstd;
  int seq, heads, dim;
  __device__ __forceinline__ float2 row(int r) const { return make_float2(rstd[r], rstd[r + 8]); }
  __device__ __forceinline__ void pack(const float (&acc)[128], float2 rs, uint32_t (&pk)[64]) const {
    pack_scaled(acc, rs.x, rs.y, pk);
  }
  __device__ __forceinline__ void prefetch(Buf&, int, int, int, int) const {}
  __device__ __forceinline__ void chunk(const uint32_t (&pk)[64], const Buf&, int c, int r, int col0, int qd) const {
    const int which = col0 / dim;
    __nv_bfloat16* dst = which == 0 ? q : (which == 1 ? k : v);
    const int row = r + 8 * (c / 8), col = col0 % dim + 8 * qd + 32 * (c % 8), h = col / kHeadDim, d = col % kHeadDim;
    const int64_t b = row / seq, s = row % seq;
    *reinterpret_cast<uint4*>(dst + ((b * heads + h) * seq + s) * kHeadDim + d) = chunk_word(pk, c);
  }
};

// out = bf16(residual + bf16(acc)): the projection rounded first, as the baseline's GEMM + residual kernel.
struct DResidual {
  static constexpr int kSync = 0;
  __nv_bfloat16* out;
  const __nv_bfloat16* residual;
  int ld;
  __device__ __forceinline__ float2 row(int) const { return make_float2(0.0f, 0.0f); }
  __device__ __forceinline__ void pack(const float (&acc)[128], float2, uint32_t (&pk)[64]) const { pack_plain(acc, pk); }
  __device__ __forceinline__ int64_t at(int c, int r, int col0, int qd) const {
    return static_cast<int64_t>(r + 8 * (c / 8)) * ld + col0 + 8 * qd + 32 * (c % 8);
  }
  __device__ __forceinline__ void prefetch(Buf& buf, int c, int r, int col0, int qd) const {
    buf.v[c % 3] = *reinterpret_cast<const uint4*>(residual + at(c, r, col0, qd));
  }
  __device__ __forceinline__ void chunk(const uint32_t (&pk)[64], const Buf& buf, int c, int r, int col0, int qd) const {
    const uint4 rv = buf.v[c % 3], pv = chunk_word(pk, c);
    const __nv_bfloat162* rh = reinterpret_cast<const __nv_bfloat162*>(&rv);
    const __nv_bfloat162* ph = reinterpret_cast<const __nv_bfloat162*>(&pv);
    uint32_t w[4];
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      const float2 x = __bfloat1622float2(rh[p]), y = __bfloat1622float2(ph[p]);
      w[p] = pack_bf16x2(y.x + x.x, y.y + x.y);
    }
    *reinterpret_cast<uint4*>(out + at(c, r, col0, qd)) = make_uint4(w[0], w[1], w[2], w[3]);
  }
};

// GELU(u) = u Phi(u), Phi(u) = 0.5 erfc(-u / sqrt 2), branch-free (change 4 in the header): with t = |u| / sqrt 2
// clamped to [0, 6], 0.5 erfc(t) = 2^p(t), p a degree-8 polynomial (Chebyshev fit of log2(0.5 erfc(t)) on [0, 6],
// mpmath.chebyfit, max error 1.53e-5 in the exponent = 1.06e-5 relative), and Phi = 2^p for u < 0, 1 - 2^p
// otherwise: 9 FMA-pipe ops + one ex2.approx (rel. error ~2^-22) instead of erff's two polynomial branches
// (both taken in most warps) and its exp. Checked exhaustively over every bf16 u with |u| in [1e-30, 64]
// (27068 inputs; the GEMM hands GELU bf16 pre-activations) in fp32 emulation against mpmath's exact value:
// max relative error 1.31e-5 = 2^-16.2 (bf16's half ulp is 2^-9: 128x below it), and bf16(result) equals
// bf16(exact) for all but 2 inputs, which are 1 ulp off (as any fp32 GELU near a rounding tie can be). For
// u < -6 sqrt 2 ~ -8.49 (an 8.5-sigma pre-activation) the clamp makes the result -|u| * 1.1e-17 instead of
// smaller still: absolute error < 7e-16 there.
__device__ __forceinline__ float gelu_poly(float u) {
  const float t = fminf(fabsf(u) * 0.70710678118654752f, 6.0f);
  float p = 1.384139182e-06f;
  p = fmaf(p, t, -4.593319682e-05f);
  p = fmaf(p, t, 6.803418510e-04f);
  p = fmaf(p, t, -6.000284106e-03f);
  p = fmaf(p, t, 3.566176444e-02f);
  p = fmaf(p, t, -1.546315402e-01f);
  p = fmaf(p, t, -9.156684875e-01f);
  p = fmaf(p, t, -1.628431320e+00f);
  p = fmaf(p, t, -9.999812841e-01f);
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(p));
  return u * (u < 0.0f ? e : 1.0f - e);
}

// h = bf16(GELU(bf16(rstd2 * acc))), exact (erf) GELU or (kPoly) gelu_poly: the pre-activation rounded first,
// as the baseline's.
template <bool kPoly>
struct DGelu {
  // erff: chunk 0 right after pack(), before the next tile's first wgmma: with all 64 packed words live under
  // the in-flight accumulators, erff's temporaries spilled 24 bytes (ptxas -v); one chunk fewer there, none.
  // gelu_poly needs fewer temporaries: no spill with every chunk deferred.
  static constexpr int kSync = kPoly ? 0 : 1;
  __nv_bfloat16* h;
  const float* rstd;
  int ld;
  __device__ __forceinline__ float2 row(int r) const { return make_float2(rstd[r], rstd[r + 8]); }
  __device__ __forceinline__ void pack(const float (&acc)[128], float2 rs, uint32_t (&pk)[64]) const {
    pack_scaled(acc, rs.x, rs.y, pk);
  }
  __device__ __forceinline__ void prefetch(Buf&, int, int, int, int) const {}
  __device__ __forceinline__ void chunk(const uint32_t (&pk)[64], const Buf&, int c, int r, int col0, int qd) const {
    const uint4 pv = chunk_word(pk, c);
    const __nv_bfloat162* ph = reinterpret_cast<const __nv_bfloat162*>(&pv);
    uint32_t w[4];
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      const float2 u = __bfloat1622float2(ph[p]);
      if constexpr (kPoly) w[p] = pack_bf16x2(gelu_poly(u.x), gelu_poly(u.y));
      else w[p] = pack_bf16x2(tb_rowstore::RowRstdGelu<false>::gelu(u.x), tb_rowstore::RowRstdGelu<false>::gelu(u.y));
    }
    *reinterpret_cast<uint4*>(h + static_cast<int64_t>(r + 8 * (c / 8)) * ld + col0 + 8 * qd + 32 * (c % 8)) =
        make_uint4(w[0], w[1], w[2], w[3]);
  }
};

// Where the A operand lives: plain row-major [M][K], or (heads != 0) the attention's [batch*heads][seq][128].
struct ALayout {
  int seq = 0, heads = 0;
  __device__ __forceinline__ int2 coord(int row0, int k0) const {
    if (heads == 0) return make_int2(k0, row0);
    return make_int2(k0 % kHeadDim, ((row0 / seq) * heads + k0 / kHeadDim) * seq + row0 % seq);
  }
};

// mlp_gemm::mlp_gemm_kernel<false, 1, .> (ch10's producer, K-step and release, restated) with the deferred
// epilogue, the A layout and the PDL hooks. One k-step: wait for the slot, 4 wgmma, commit.
template <class Epi, bool kPdl>
__global__ void __launch_bounds__(kThreads, 1)
    deferred_gemm_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, Epi epi,
                         ALayout al, int M, int N, int K) {
  extern __shared__ unsigned char smem_raw[];
  const sm90::GemmRing ring = sm90::carve_gemm_ring(smem_raw, Cfg::kStages, Cfg::kABytes, Cfg::kStageBytes);
  __nv_bfloat16* sA = ring.a;
  __nv_bfloat16* sB = ring.b;
  uint64_t* full = ring.full;
  uint64_t* empty = ring.empty;

  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const int tiles_m = M / Cfg::kBM, tiles_n = N / kBN, k_tiles = K / kBK;
  const int units = tiles_m * tiles_n;

  if (threadIdx.x == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      sm90::mbar_init(&full[s], 1);
      sm90::mbar_init(&empty[s], 2);
    }
    sm90::mbar_init_fence();
  }
  __syncthreads();
  if constexpr (kPdl) {
    pdl_trigger();
    pdl_wait();
  }

  if (wg == 0) {
    sm90::setmaxnreg_dec<40>();
    if (t == 0) {
      int it = 0;
      for (int u = blockIdx.x; u < units; u += gridDim.x) {
        const sm90::TileCoord tc = sm90::grouped_tile(u, tiles_m, tiles_n, kGroupM);
        const int row0 = tc.m * Cfg::kBM, col0 = tc.n * kBN;
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          const int s = it % Cfg::kStages;
          if (it >= Cfg::kStages) sm90::mbar_wait(&empty[s], ((it / Cfg::kStages) - 1) & 1);
          sm90::mbar_arrive_expect_tx(&full[s], Cfg::kStageBytes);
          const int2 ac = al.coord(row0, kt * kBK);
          sm90::tma_load_2d(sA + s * (Cfg::kBM * kBK), &a_map, ac.x, ac.y, &full[s]);
          sm90::tma_load_2d(sB + s * (kBN * kBK), &b_map, kt * kBK, col0, &full[s]);
        }
      }
    }
  } else {
    sm90::setmaxnreg_inc<232>();
    const int cw = wg - 1, warp = t / 32, lane = t % 32, qd = lane % 4;
    float acc[128];
    uint32_t pk[64];
    Buf buf;
    int pr = -1, pc = 0;  // the pending (deferred) tile: this thread's first row and the tile's first column
    int it = 0;
    auto kstep = [&](int s) {
      sm90::mbar_wait(&full[s], (it / Cfg::kStages) & 1);
      sm90::wgmma_ktile_m64n256(acc, sA + s * (Cfg::kBM * kBK) + cw * (64 * kBK), sB + s * (kBN * kBK));
    };
    auto release = [&](int s) {
      if (t == 0) sm90::mbar_arrive(&empty[s]);
    };
    for (int u = blockIdx.x; u < units; u += gridDim.x) {
      const sm90::TileCoord tc = sm90::grouped_tile(u, tiles_m, tiles_n, kGroupM);
      const int r = tc.m * Cfg::kBM + cw * 64 + warp * 16 + lane / 4, col0 = tc.n * kBN;
#pragma unroll
      for (int x = 0; x < 128; ++x) acc[x] = 0.0f;
      int prev = -1;
#pragma unroll
      for (int c = Epi::kSync; c < kChunks; ++c, ++it) {  // k_tiles >= kChunks (Gemm::prepare)
        const int s = it % Cfg::kStages;
        kstep(s);
        if (pr >= 0) {
          if (c + 2 < kChunks) epi.prefetch(buf, c + 2, pr, pc, qd);
          epi.chunk(pk, buf, c, pr, pc, qd);
        }
        sm90::wgmma_wait<1>();
        sm90::fence_operands(acc);
        if (prev >= 0) release(prev);
        prev = s;
      }
      const float2 rw = epi.row(r);  // loaded once the pending chunks are done (registers), used after the loop
      for (int kt = kChunks - Epi::kSync; kt < k_tiles; ++kt, ++it) {
        const int s = it % Cfg::kStages;
        kstep(s);
        sm90::wgmma_wait<1>();
        sm90::fence_operands(acc);
        release(prev);
        prev = s;
      }
      sm90::wgmma_wait<0>();
      sm90::fence_operands(acc);
      release(prev);
      epi.pack(acc, rw, pk);
      pr = r, pc = col0;
#pragma unroll
      for (int c = 0; c < Epi::kSync; ++c) epi.chunk(pk, buf, c, pr, pc, qd);
      epi.prefetch(buf, Epi::kSync, pr, pc, qd);
      epi.prefetch(buf, Epi::kSync + 1, pr, pc, qd);
    }
    if (pr >= 0) {
#pragma unroll
      for (int c = Epi::kSync; c < kChunks; ++c) {
        if (c + 2 < kChunks) epi.prefetch(buf, c + 2, pr, pc, qd);
        epi.chunk(pk, buf, c, pr, pc, qd);
      }
    }
  }
}

template <class Epi, bool kPdl>
struct DeferredGemm {
  static constexpr auto kernel = deferred_gemm_kernel<Epi, kPdl>;
  CUtensorMap a_map{}, b_map{};
  const void* a_for = nullptr;
  const void* b_for = nullptr;
  ALayout al{};
  int grid = 0;

  // al.heads != 0: A is the attention's [m / seq * heads][seq][128] (k must be heads * 128).
  void prepare(const aisp::DeviceInfo& dev, int64_t m, int64_t n, int64_t k, ALayout layout = {}) {
    if (m % Cfg::kBM || n % kBN || k % kBK || k / kBK < kChunks)
      throw std::runtime_error("deferred gemm: needs m % 128, n % 256, k % 64 == 0 and k >= 1024");
    if (layout.heads && (k != int64_t{layout.heads} * kHeadDim || layout.seq % Cfg::kBM || m % layout.seq))
      throw std::runtime_error("deferred gemm: heads-layout A needs k = heads x 128 and seq % 128 == 0");
    AISP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
    al = layout;
    const int units = static_cast<int>((m / Cfg::kBM) * (n / kBN));
    grid = std::min(dev.sm_count > 0 ? dev.sm_count : 132, units);
  }

  void launch(cudaStream_t stream, const void* a, const void* b, Epi epi, int64_t m, int64_t n, int64_t k) {
    if (a != a_for) {
      a_map = al.heads ? sm90::encode_kmajor_bf16(a, m * al.heads, kHeadDim, Cfg::kBM)  // [m/seq*heads*seq][128]
                       : sm90::encode_kmajor_bf16(a, m, k, Cfg::kBM);
      a_for = a;
    }
    if (b != b_for) b_map = sm90::encode_kmajor_bf16(b, n, k, kBN), b_for = b;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(grid));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = Cfg::kSmemBytes;
    cfg.stream = stream;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = kPdl ? 1 : 0;
    AISP_CUDA_CHECK(
        cudaLaunchKernelEx(&cfg, kernel, a_map, b_map, epi, al, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k)));
  }
};

// The two norm kernels with the PDL hooks (tb_rowstore::row_rstd_zero and block::row_rstd otherwise).
template <bool kPdl>
__global__ void row_rstd_pdl(const __nv_bfloat16* __restrict__ x, int64_t rows, int dim, float* __restrict__ rstd) {
  if constexpr (kPdl) {
    pdl_trigger();
    pdl_wait();
  }
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float ss = warp_sum(row_sumsq_lane(reinterpret_cast<const uint4*>(x + row * dim), dim, lane));
  if (lane == 0) rstd[row] = rsqrtf(ss / dim + kRmsEps);
}
template <bool kPdl>
inline void launch_row_rstd(cudaStream_t st, const __nv_bfloat16* x, int64_t rows, int dim, float* rstd) {
  if constexpr (!kPdl) {
    block::launch_row_rstd(st, x, rows, dim, rstd);
  } else {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>((rows * 32 + 255) / 256));
    cfg.blockDim = dim3(256);
    cfg.stream = st;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    AISP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, row_rstd_pdl<true>, x, rows, dim, rstd));
  }
}

// kDeferred: bit i = GEMM i (0 QKV, 1 out-proj, 2 up, 3 down) on the deferred epilogue, else on the rowstore
// GEMM (tb_rowstore's epilogues, unchanged). kHeadsA: the out-projection reads o in the heads layout (needs
// its GEMM deferred). kPdl: every launch but the attention's with programmatic stream serialization (needs all
// four deferred).
template <int kDeferred, bool kHeadsA, bool kPdl, bool kPolyGelu = false>
class DeferredBlock : public TransformerBlockBase {
  static_assert(!kHeadsA || (kDeferred & 2), "heads-layout A is a deferred-GEMM feature");
  static_assert(!kPdl || kDeferred == 15, "PDL hooks are in the deferred GEMM only");
  static_assert(!kPolyGelu || (kDeferred & 4), "the branch-free GELU is a deferred epilogue");
  static constexpr bool D(int i) { return (kDeferred >> i) & 1; }

 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    const int seq = static_cast<int>(ctx.param("seq")), heads = static_cast<int>(ctx.param("heads"));
    const int bh = static_cast<int>(ctx.param("batch")) * heads, di = static_cast<int>(d), fi = static_cast<int>(f);
    cudaStream_t st = ctx.stream();
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    auto* y = ctx.buffer("y").as<__nv_bfloat16>();
    // The first kernel waits for nothing of this call; with kPdl it is still launched plainly (it follows the
    // previous call's or the harness's work).
    block::launch_row_rstd(st, x, t, di, act_.rstd1);
    if constexpr (D(0)) qkv_d_.launch(st, x, w_.wqkv, DQkv{act_.q, act_.k, act_.v, act_.rstd1, seq, heads, di}, t, 3 * d, d);
    else qkv_.launch(st, x, w_.wqkv, tb_rowstore::RowQkv{act_.q, act_.k, act_.v, act_.rstd1, seq, heads, di}, t, 3 * d, d);
    flash_.launch(st, act_.o, seq, bh, softmax_scale());
    if constexpr (!kHeadsA) launch_merge_heads(st, act_.o, t, seq, heads, act_.om);
    if constexpr (D(1)) out_d_.launch(st, kHeadsA ? act_.o : act_.om, w_.wo, DResidual{act_.a, x, di}, t, d, d);
    else out_.launch(st, act_.om, w_.wo, tb_rowstore::RowResidualSumSq{act_.a, x, nullptr, di}, t, d, d);
    launch_row_rstd<kPdl>(st, act_.a, t, di, act_.rstd2);
    if constexpr (D(2)) up_d_.launch(st, act_.a, w_.w1, DGelu<kPolyGelu>{act_.h, act_.rstd2, fi}, t, f, d);
    else up_.launch(st, act_.a, w_.w1, tb_rowstore::RowRstdGelu<false>{act_.h, act_.rstd2, fi, di}, t, f, d);
    if constexpr (D(3)) down_d_.launch(st, act_.h, w_.w2, DResidual{y, act_.a, di}, t, d, f);
    else down_.launch(st, act_.h, w_.w2, mlp_gemm::RowResidual{y, act_.a, di}, t, d, f);
  }
  std::string technique() const override {
    std::string s = "wgmma GEMMs with 16-byte-run fused epilogues (weights' rows permuted in setup), ";
    s += kDeferred == 15 ? "every GEMM's epilogue deferred under the next tile's main loop"
                         : "the up GEMM's GELU epilogue deferred under the next tile's main loop";
    if (kHeadsA) s += ", out-projection reading the attention's heads layout (no merge pass)";
    if (kPdl) s += ", programmatic dependent launch";
    if (kPolyGelu) s += ", branch-free GELU (erfc as 2^polynomial, 2^-16 relative)";
    return s + " + FA3-style flash attention";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    const int64_t bh = ctx.param("batch") * ctx.param("heads");
    act_ = block::alloc_fused_activations(ctx, t, d, f, !kHeadsA);
    w_ = tb_rowstore::prepare_permuted_weights(ctx, d, f);
    const aisp::DeviceInfo& dev = ctx.device();
    if constexpr (D(0)) qkv_d_.prepare(dev, t, 3 * d, d);
    else qkv_.prepare(dev, t, 3 * d, d);
    if constexpr (D(1))
      out_d_.prepare(dev, t, d, d,
                     kHeadsA ? ALayout{static_cast<int>(ctx.param("seq")), static_cast<int>(ctx.param("heads"))} : ALayout{});
    else out_.prepare(dev, t, d, d);
    if constexpr (D(2)) up_d_.prepare(dev, t, f, d);
    else up_.prepare(dev, t, f, d);
    if constexpr (D(3)) down_d_.prepare(dev, t, d, f);
    else down_.prepare(dev, t, d, f);
    flash_.prepare(act_.q, act_.k, act_.v, bh * ctx.param("seq"));
  }

 private:
  mlp_gemm::Gemm<false, 1, tb_rowstore::RowQkv> qkv_;
  mlp_gemm::Gemm<false, 1, tb_rowstore::RowResidualSumSq> out_;
  mlp_gemm::Gemm<false, 1, tb_rowstore::RowRstdGelu<false>> up_;
  mlp_gemm::Gemm<false, 1, mlp_gemm::RowResidual> down_;
  DeferredGemm<DQkv, kPdl> qkv_d_;
  DeferredGemm<DResidual, kPdl> out_d_;
  DeferredGemm<DGelu<kPolyGelu>, kPdl> up_d_;
  DeferredGemm<DResidual, kPdl> down_d_;
  BlockFlash flash_;
  block::FusedActivations act_;
  tb_rowstore::PermutedWeights w_;
};

}  // namespace tb_deferred
