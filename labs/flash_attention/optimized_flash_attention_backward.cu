// labs/flash_attention flash_attention_backward, optimized: FlashAttention-2's fused backward on mma.sync
// (m16n8k16, bf16 in, fp32 accumulate; ldmatrix and cp.async helpers are ch10's fa_mma, included, not copied).
// Technique: after the small D = rowsum(dO * O) pre-pass (the pair's rowdot kernel), one kernel whose block
// (8 warps) owns 128 keys of one head - its K and V tiles stay in shared memory - and walks all query tiles
// of 64 rows (Q, dO, L, D double-buffered by cp.async). Per tile each warp, for its 16 keys:
//   S^T = K Q^T (16 x 64, registers) -> P^T = exp2(S^T * scale * log2 e - L * log2 e)   (recomputed, never stored)
//   dP^T = V dO^T -> dS^T = P^T (dP^T - D)
//   dV += P^T dO and dK += dS^T Q, accumulated in registers over all query tiles (P^T and dS^T go from the
//   accumulator layout straight into the A operand, as in ch10's forward)
// then dS^T goes to shared memory once in bf16 and the 8 warps compute the tile's dQ part = dS K (64 x 128,
// each warp 16 x 64) and add it to an fp32 dQ in global memory with vector fp32 atomics (red.global.add.v2.f32,
// sm_90); dQ is zeroed on the stream first. dK, dV are scaled and written once at the end.
// Why it should be faster: P, dP and dS never touch HBM. The baseline writes and reads S and dP in fp32 and
// P and dS in bf16, ~6.5 GB per pass (~1.4 ms of the H200's 4.8 TB/s) on top of the same 344 GFLOP; here
// the HBM traffic is ~130 MB of inputs and outputs plus 1 GiB of dQ atomics that resolve in L2.
// Expected on Hopper: ~1 ms (~300 TFLOP/s; the per-warp tiles need ~0.6 ldmatrix.x4 per mma, so shared-memory
// bandwidth, not the tensor cores, is the limit of this simple schedule - FA2's backward reaches ~300-350
// TFLOP/s on an H100, FA3's wgmma backward ~500) against ~2-2.5 ms for the baseline: ~2x.
// Measured (H200, 2026-11-28, `aisp bench run -t labs/flash_attention:flash_attention_backward --time-limit 5
// --update-expectations`, cold mode): 1.323 ms = 260 TFLOP/s against the baseline's 1.868 ms (184 TFLOP/s):
// 1.412x [1.387, 1.438], FASTER, 19/19 checks; peak memory 194 MiB against 3370 MiB. Below the ~2x expected:
// the baseline was faster than estimated, and this kernel sits at ~40% of mma.sync's rate. Not profiled yet;
// the likely causes: ptxas spills 36 B at the 255-register cap (dK and dV accumulators are 128 registers per
// thread), one block of 8 warps per SM leaves little latency hiding across the four barrier-separated phases,
// and every warp re-reads the whole Q/dO tile by ldmatrix (~0.6 ldmatrix.x4 per mma). Next steps: FA3's
// wgmma backward (dS and P^T through shared memory, 2 consumer warpgroups), or Br = 32 with 2 blocks/SM.
#include "../../chapters/ch10/flash_attention_mma_sync.cuh"
#include "flash_attention_backward.cuh"

namespace fa_bwd {

constexpr int kBc = 128, kBr = 64, kD = 128, kThreads = 256;  // keys per block, queries per step
constexpr int kRowBytes = kD * 2;
constexpr int kKVBytes = kBc * kRowBytes, kQBytes = kBr * kRowBytes;  // 32 KiB, 16 KiB
constexpr int kDsRowBytes = kBr * 2;                                  // dS^T row: 64 bf16 = 128 B
constexpr int kOffV = kKVBytes, kOffQ = 2 * kKVBytes, kOffDo = kOffQ + 2 * kQBytes, kOffDs = kOffDo + 2 * kQBytes,
              kOffLd = kOffDs + kBc * kDsRowBytes;
constexpr int kLdBytes = 2 * kBr * 4;              // per stage: 64 L then 64 D, fp32
constexpr int kSmemBytes = kOffLd + 2 * kLdBytes;  // 145 KiB: one block (8 warps) per SM
static_assert(kThreads == fa_mma::kThreads && kD == fa_mma::kD, "ch10's tile loader is for 256 threads, d = 128");

// dS^T tile: 128 key rows of 128 B; the 16-byte chunk XORed with (row % 8), so the 8 rows one ldmatrix
// reads and the 8 rows one store instruction writes fall in 8 different bank groups.
__device__ __forceinline__ uint32_t ds_swizzle(int row, int chunk) {
  return static_cast<uint32_t>(row * kDsRowBytes + ((chunk ^ (row & 7)) << 4));
}

// Query tile `tile` (Q, dO rows, L and D) into `stage`.
__device__ __forceinline__ void load_query_tile(uint32_t smem, int stage, int tile, const __nv_bfloat16* qh,
                                                const __nv_bfloat16* doh, const float* lh, const float* dh) {
  const int64_t r0 = static_cast<int64_t>(tile) * kBr;
  fa_mma::load_tile<kBr>(smem + kOffQ + stage * kQBytes, qh + r0 * kD);
  fa_mma::load_tile<kBr>(smem + kOffDo + stage * kQBytes, doh + r0 * kD);
  if (threadIdx.x < 32) {  // 16 chunks of L, 16 of D
    const int c = threadIdx.x & 15;
    const float* src = (threadIdx.x < 16 ? lh : dh) + r0 + 4 * c;
    fa_mma::cp_async16(smem + kOffLd + stage * kLdBytes + (threadIdx.x < 16 ? 0 : kBr * 4) + 16 * c, src);
  }
}

// acc (16 rows x 64 cols, 8 n-tiles) += A B^T with A = 16 rows of `a_tile` (from row a_row0), B = the 64 rows
// of `b_tile`, both 128 wide (the contraction over d). ch10's S = Q K^T loop.
__device__ __forceinline__ void rows_times_rows_t(float (&acc)[8][4], uint32_t a_tile, int a_row0, uint32_t b_tile, int lane) {
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk) {
    uint32_t a[4];
    fa_mma::ldmatrix_x4(a, a_tile + fa_mma::swizzle(a_row0 + (lane & 15), 2 * kk + (lane >> 4)));
#pragma unroll
    for (int jj = 0; jj < kBr / 16; ++jj) {
      uint32_t b[4];
      fa_mma::ldmatrix_x4(b, b_tile + fa_mma::swizzle(16 * jj + (lane & 7) + 8 * (lane >> 4), 2 * kk + ((lane >> 3) & 1)));
      fa_mma::mma_bf16(acc[2 * jj], a, b[0], b[1]);
      fa_mma::mma_bf16(acc[2 * jj + 1], a, b[2], b[3]);
    }
  }
}

// acc (16 x 128) += X B, X = 16 x 64 in accumulator layout (registers), B = the 64 x 128 tile `b_tile`.
__device__ __forceinline__ void regs_times_tile(float (&acc)[16][4], const float (&x)[8][4], uint32_t b_tile, int lane) {
#pragma unroll
  for (int kk = 0; kk < kBr / 16; ++kk) {
    const uint32_t a[4] = {fa_mma::pack_bf16(x[2 * kk][0], x[2 * kk][1]), fa_mma::pack_bf16(x[2 * kk][2], x[2 * kk][3]),
                           fa_mma::pack_bf16(x[2 * kk + 1][0], x[2 * kk + 1][1]),
                           fa_mma::pack_bf16(x[2 * kk + 1][2], x[2 * kk + 1][3])};
#pragma unroll
    for (int dd = 0; dd < kD / 16; ++dd) {
      uint32_t b[4];
      fa_mma::ldmatrix_x4_trans(b, b_tile + fa_mma::swizzle(16 * kk + (lane & 15), 2 * dd + (lane >> 4)));
      fa_mma::mma_bf16(acc[2 * dd], a, b[0], b[1]);
      fa_mma::mma_bf16(acc[2 * dd + 1], a, b[2], b[3]);
    }
  }
}

// The kernel's phases, one function each, all forceinline with the arrays passed by reference. The kernel keeps
// the declarations (dK/dV accumulators, p, ds, acc) and the lane layout (g, t) in their one-body order: at the
// 255-register cap that order decides ptxas's allocation (a split that declared acc inside add_dq_tile
// compiled to 27392 instead of 27008 bytes of SASS, 44 instead of 36 bytes of spills). This split compiles to
// the same PTX as the one-body kernel that was measured.

// Before query tile i: start loading tile i + 1 into the other stage (last read before the previous tile's
// mid-loop barrier), wait for tile i, and make it visible to all warps.
__device__ __forceinline__ void next_query_tile(uint32_t smem, int i, int tiles, const __nv_bfloat16* qh,
                                                const __nv_bfloat16* doh, const float* lh, const float* dh) {
  const int stage = i & 1;
  if (i + 1 < tiles) {
    load_query_tile(smem, stage ^ 1, i + 1, qh, doh, lh, dh);
    fa_mma::cp_async_commit();
    fa_mma::cp_async_wait<1>();
  } else {
    fa_mma::cp_async_wait<0>();
  }
  __syncthreads();
}

// P^T = exp(S^T * scale - L): rows = this warp's 16 keys (of `sk`), columns = the tile's 64 queries (`sq`, L in `sl`).
__device__ __forceinline__ void recompute_pt(float (&p)[8][4], uint32_t sk, uint32_t sq, const float* sl, int warp, int lane,
                                             int t, float scale_log2) {
  constexpr float kLog2e = 1.4426950408889634f;
#pragma unroll
  for (int n = 0; n < 8; ++n) p[n][0] = p[n][1] = p[n][2] = p[n][3] = 0.0f;
  rows_times_rows_t(p, sk, warp * 16, sq, lane);
#pragma unroll
  for (int n = 0; n < 8; ++n) {
    const float2 l = *reinterpret_cast<const float2*>(sl + 8 * n + 2 * t);
    const float l0 = l.x * kLog2e, l1 = l.y * kLog2e;
    p[n][0] = fa_mma::exp2_approx(fmaf(p[n][0], scale_log2, -l0));
    p[n][1] = fa_mma::exp2_approx(fmaf(p[n][1], scale_log2, -l1));
    p[n][2] = fa_mma::exp2_approx(fmaf(p[n][2], scale_log2, -l0));
    p[n][3] = fa_mma::exp2_approx(fmaf(p[n][3], scale_log2, -l1));
  }
}

// dS^T = P^T (dP^T - D), dP^T = V dO^T (V rows of this warp's keys in `sv`, dO in `sdo`, D in `sdd`).
__device__ __forceinline__ void compute_dst(float (&ds)[8][4], const float (&p)[8][4], uint32_t sv, uint32_t sdo,
                                            const float* sdd, int warp, int lane, int t) {
#pragma unroll
  for (int n = 0; n < 8; ++n) ds[n][0] = ds[n][1] = ds[n][2] = ds[n][3] = 0.0f;
  rows_times_rows_t(ds, sv, warp * 16, sdo, lane);
#pragma unroll
  for (int n = 0; n < 8; ++n) {
    const float2 d = *reinterpret_cast<const float2*>(sdd + 8 * n + 2 * t);
    ds[n][0] = p[n][0] * (ds[n][0] - d.x);
    ds[n][1] = p[n][1] * (ds[n][1] - d.y);
    ds[n][2] = p[n][2] * (ds[n][2] - d.x);
    ds[n][3] = p[n][3] * (ds[n][3] - d.y);
  }
}

// This warp's 16 rows of dS^T to shared memory in bf16 (swizzled, ds_swizzle).
__device__ __forceinline__ void store_dst(uint32_t sds, const float (&ds)[8][4], int warp, int g, int t) {
#pragma unroll
  for (int n = 0; n < 8; ++n)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const int row = warp * 16 + g + 8 * r;
      const uint32_t val = fa_mma::pack_bf16(ds[n][2 * r], ds[n][2 * r + 1]);
      asm volatile("st.shared.u32 [%0], %1;\n" ::"r"(sds + ds_swizzle(row, n) + 4 * t), "r"(val) : "memory");
    }
}

// dQ of query tile i += scale * dS K over the block's 128 keys: this warp's 16 queries x 64 d, from dS^T in
// `sds` (after the barrier that follows every warp's store_dst) and K in `sk`, added by fp32 vector atomics.
// `acc` is the caller's (see above).
__device__ __forceinline__ void add_dq_tile(float (&acc)[8][4], float* dq, int64_t head, int i, uint32_t sds, uint32_t sk,
                                            int warp, int lane, int g, int t, float scale) {
  const int mq = (warp & 3) * 16, dcol = (warp >> 2) * 64;  // this warp's 16 queries x 64 d of dQ
#pragma unroll
  for (int n = 0; n < 8; ++n) acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.0f;
#pragma unroll
  for (int kk = 0; kk < kBc / 16; ++kk) {
    // A = dS (queries x keys) read transposed from dS^T: matrices (m 0-7, k 0-7), (m 8-15, k 0-7),
    // (m 0-7, k 8-15), (m 8-15, k 8-15); lane l gives row l % 8 of matrix l / 8.
    const int mi = lane >> 3, row = 16 * kk + 8 * (mi >> 1) + (lane & 7);
    uint32_t a[4];
    fa_mma::ldmatrix_x4_trans(a, sds + ds_swizzle(row, (mq >> 3) + (mi & 1)));
#pragma unroll
    for (int dd = 0; dd < 4; ++dd) {
      uint32_t b[4];
      fa_mma::ldmatrix_x4_trans(b, sk + fa_mma::swizzle(16 * kk + (lane & 15), (dcol >> 3) + 2 * dd + (lane >> 4)));
      fa_mma::mma_bf16(acc[2 * dd], a, b[0], b[1]);
      fa_mma::mma_bf16(acc[2 * dd + 1], a, b[2], b[3]);
    }
  }
  float* dq_row = dq + head + static_cast<int64_t>(i * kBr + mq + g) * kD + dcol + 2 * t;
#pragma unroll
  for (int n = 0; n < 8; ++n)
#pragma unroll
    for (int r = 0; r < 2; ++r)
      atomicAdd(reinterpret_cast<float2*>(dq_row + 8 * r * kD + 8 * n),
                make_float2(acc[n][2 * r] * scale, acc[n][2 * r + 1] * scale));
}

// After the last tile: this warp's 16 key rows of dK (times scale) and dV, fp32.
__device__ __forceinline__ void store_dk_dv(float* dk, float* dv, int64_t head, int k0, const float (&dk_acc)[16][4],
                                            const float (&dv_acc)[16][4], int warp, int g, int t, float scale) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int64_t row = static_cast<int64_t>(k0 + warp * 16 + g + 8 * r);
    float* dk_row = dk + head + row * kD + 2 * t;
    float* dv_row = dv + head + row * kD + 2 * t;
#pragma unroll
    for (int n = 0; n < 16; ++n) {
      *reinterpret_cast<float2*>(dk_row + 8 * n) = make_float2(dk_acc[n][2 * r] * scale, dk_acc[n][2 * r + 1] * scale);
      *reinterpret_cast<float2*>(dv_row + 8 * n) = make_float2(dv_acc[n][2 * r], dv_acc[n][2 * r + 1]);
    }
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    flash_bwd_kernel(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                     const __nv_bfloat16* __restrict__ v, const __nv_bfloat16* __restrict__ dout, const float* __restrict__ lse,
                     const float* __restrict__ dvec, float* __restrict__ dq, float* __restrict__ dk, float* __restrict__ dv,
                     int seq, float scale, float scale_log2) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
  const uint32_t sk = smem, sv = smem + kOffV, sds = smem + kOffDs;
  const float* sld = reinterpret_cast<const float*>(smem_raw + kOffLd);

  const int k0 = static_cast<int>(blockIdx.x) * kBc;
  const int64_t head = static_cast<int64_t>(blockIdx.y) * seq * kD, head_rows = static_cast<int64_t>(blockIdx.y) * seq;
  const __nv_bfloat16 *qh = q + head, *doh = dout + head;
  const float *lh = lse + head_rows, *dh = dvec + head_rows;

  fa_mma::load_tile<kBc>(sk, k + head + static_cast<int64_t>(k0) * kD);
  fa_mma::load_tile<kBc>(sv, v + head + static_cast<int64_t>(k0) * kD);
  load_query_tile(smem, 0, 0, qh, doh, lh, dh);
  fa_mma::cp_async_commit();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // the mma accumulator layout: row g (+8), columns 2t, 2t + 1
  float dk_acc[16][4], dv_acc[16][4];  // this warp's 16 keys x 128 d
#pragma unroll
  for (int i = 0; i < 16; ++i)
#pragma unroll
    for (int e = 0; e < 4; ++e) dk_acc[i][e] = dv_acc[i][e] = 0.0f;

  const int tiles = seq / kBr;
  for (int i = 0; i < tiles; ++i) {
    next_query_tile(smem, i, tiles, qh, doh, lh, dh);
    const int stage = i & 1;
    const uint32_t sq = smem + kOffQ + stage * kQBytes, sdo = smem + kOffDo + stage * kQBytes;
    const float* sl = sld + stage * (2 * kBr);
    const float* sdd = sl + kBr;
    float p[8][4];
    recompute_pt(p, sk, sq, sl, warp, lane, t, scale_log2);
    float ds[8][4];
    compute_dst(ds, p, sv, sdo, sdd, warp, lane, t);
    regs_times_tile(dv_acc, p, sdo, lane);  // dV += P^T dO
    regs_times_tile(dk_acc, ds, sq, lane);  // dK += dS^T Q (scaled at the end)
    store_dst(sds, ds, warp, g, t);
    __syncthreads();
    float acc[8][4];
    add_dq_tile(acc, dq, head, i, sds, sk, warp, lane, g, t, scale);
    // No barrier here: the next tile's loads target the other stage, and its dS^T store comes after its
    // first barrier, which every warp reaches only once done reading this tile's dS^T.
  }
  store_dk_dv(dk, dv, head, k0, dk_acc, dv_acc, warp, g, t, scale);
}

class OptimizedFlashAttentionBackward : public FlashAttentionBackwardPair {
 protected:
  void setup_variant(aisp::Context&) override {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(flash_bwd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }

 public:
  void run(aisp::Context& ctx) override {
    const int seq = static_cast<int>(ctx.param("seq"));
    const aisp::Buffer dq = ctx.buffer("dq");
    AISP_CUDA_CHECK(cudaMemsetAsync(dq.data, 0, dq.bytes(), ctx.stream()));  // dQ is summed by atomics
    launch_rowdot(ctx);
    const dim3 grid(static_cast<unsigned>(seq / kBc), static_cast<unsigned>(batch_heads(ctx)));
    const float scale = softmax_scale();
    flash_bwd_kernel<<<grid, kThreads, kSmemBytes, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ctx.buffer("k").as<const __nv_bfloat16>(),
        ctx.buffer("v").as<const __nv_bfloat16>(), ctx.buffer("do").as<const __nv_bfloat16>(),
        ctx.buffer("lse").as<const float>(), d_, dq.as<float>(), ctx.buffer("dk").as<float>(), ctx.buffer("dv").as<float>(),
        seq, scale, scale * 1.4426950408889634f);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override {
    return "fused attention backward (FA2-style): mma.sync bf16, P recomputed from L in registers, dK/dV in "
           "registers, dQ by fp32 vector atomics; P, dP, dS never in HBM";
  }
};

}  // namespace fa_bwd

using fa_bwd::OptimizedFlashAttentionBackward;
AISP_BENCHMARK(OptimizedFlashAttentionBackward)
