// ch18 mla_latent_kv, optimized on tensor cores: MLA weight absorption with both latent products as
// mma.sync (the FlashMLA idea: the 16 heads sharing one latent row are the M = 16 of the instruction).
//
// Technique: the same four steps as optimized_mla_latent_kv.cu (absorb_q, attention over the latent cache,
// combine_latent, up_project: mla_absorbed.cuh); only the kernel that reads the cache differs.
// attend_latent_tc: CTAs of 4 warps, 2 per SM, each a range of whole 16-token tiles; a tile (16 latent rows,
// 16 KB) is staged in shared memory by cp.async, 3 stages deep, its 16-byte chunks XOR-swizzled by row so
// that every fragment load below is free of bank conflicts. Warp w owns latent dims [128w, 128w + 128):
//  - scores: S[16 heads][16 tokens] += Q_lat[:, slice] C[tile, slice]^T, 8 k-steps x 2 token halves = 16
//    mma.sync.m16n8k16 (Q_lat in bf16, held in registers for the whole kernel; fp32 accumulate); the 4
//    warps' partial S meet in shared memory and every warp sums them in the same order (identical S);
//  - online softmax in registers (rows = heads g and g+8 of the fragment, 4 lanes per row);
//  - o_lat[16 heads][slice] += P C[tile, slice]: P (bf16) is the A operand straight from the score
//    fragment, C the B operand (16 mma: 16 n-tiles of 8 latent dims, K = the 16 tokens).
// The CTA writes one partial (o_lat unnormalized, max, sum) per head, as the CUDA-core variant does.
// Why it is faster: per cached token the absorbed form does 16 heads x 512 dims x 2 products = 32 kFLOP on
// 1 KB, 32 FLOP/B: above the H100's fp32 CUDA-core ridge (~67 TFLOP/s / 3.35 TB/s = 20 FLOP/B), so the
// CUDA-core variant is compute-bound (measured 64.0 us against the full-head baseline's 58.8 us, H100
// 2026-11-28), far below the tensor-core ridge (~295 FLOP/B). Here 0.54 GFLOP are ~32k mma.sync, ~250 per
// SM: a few us; the step becomes what MLA promises, a 16.8 MB read (~6 us at 3 TB/s) plus ~8.6 MB of
// partials through L2 and three small kernels.
// Numerics: Q_lat and P are rounded to bf16 for the tensor cores (as FlashMLA does), the sums stay fp32.
// Estimated effect on o: relative 2^-9 per score and per weight, averaged over 16384 tokens: ~2e-5 absolute
// (rms |o| 0.05), well inside the pair's atol 5e-4.
// Expected on Hopper: ~20-30 us in all (four launches) against the baseline's ~59 us: ~2-3x. Measured
// (2026-11-28, docs/measurements/closing_calls_20261128.md, all checks passed): H100 80GB HBM3 37.3 us
// against 59.4 us, 1.591x [1.562, 1.621], FASTER; H200 36.4 us against 46.6 us, 1.279x [1.255, 1.304],
// FASTER (the H200's HBM helps the full-head baseline more). Short of ~2-3x: the four launches and the
// partials' round trip through L2 are a larger share than estimated.
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

#include "mla_absorbed.cuh"

namespace {

using namespace mla;

constexpr int kTile = 16, kStages = 3, kWarpsTc = 4, kThreadsTc = kWarpsTc * 32, kSlice = kLatent / kWarpsTc;
constexpr int kChunks = kLatent / 8;  // 16-byte chunks per latent row
constexpr int kTileBytes = kTile * kLatent * 2;
constexpr int kPartFloats = kWarpsTc * 8 * 32;  // [warp][fragment register][lane] partial scores
constexpr size_t kSmemTc = size_t{kStages} * kTileBytes + size_t{kPartFloats} * 4;
static_assert(kSlice == 128, "warp w owns 128 latent dims: 8 k-steps of scores, 16 n-tiles of o_lat");

__device__ __forceinline__ void mma_bf16(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                         uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Element offset of (row r, dim j) in a staged tile: 16-byte chunk j/8 of row r sits at chunk (j/8) ^ (r % 8).
__device__ __forceinline__ int swz(int r, int j) { return r * kLatent + (((j >> 3) ^ (r & 7)) << 3) + (j & 7); }

// Two bf16 as one register, `lo` in the low half (the lower k index of a fragment pair).
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}
__device__ __forceinline__ uint32_t pack2(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  const uint32_t l = *reinterpret_cast<const unsigned short*>(&lo), h = *reinterpret_cast<const unsigned short*>(&hi);
  return l | (h << 16);
}

// Online softmax of one tile's scores, per row (row 0: head g = registers 0, 1; row 1: head g+8 = registers
// 2, 3): the rows' running max m over the quad's lanes, the rescale alpha of what came before, s turned into
// exp2(s - m) in place, and this lane's running sum l.
__device__ __forceinline__ void online_softmax_rows(float (&s)[2][4], float (&m)[2], float (&l)[2], float (&alpha)[2]) {
#pragma unroll
  for (int row = 0; row < 2; ++row) {
    float mx = fmaxf(fmaxf(s[0][2 * row], s[0][2 * row + 1]), fmaxf(s[1][2 * row], s[1][2 * row + 1]));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    mx = fmaxf(mx, m[row]);
    alpha[row] = exp2f(m[row] - mx);  // m = -inf before the first tile: alpha 0, scores are finite
    m[row] = mx;
    float sum = 0.0f;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      s[h][2 * row] = exp2f(s[h][2 * row] - mx);
      s[h][2 * row + 1] = exp2f(s[h][2 * row + 1] - mx);
      sum += s[h][2 * row] + s[h][2 * row + 1];
    }
    l[row] = l[row] * alpha[row] + sum;
  }
}

__global__ void __launch_bounds__(kThreadsTc)
    attend_latent_tc(const __nv_bfloat16* __restrict__ c, const float* __restrict__ q_lat, int64_t len, int splits,
                     float* __restrict__ part_o, float2* __restrict__ part_ml) {
  extern __shared__ uint4 smem[];
  auto* tiles = reinterpret_cast<__nv_bfloat16*>(smem);
  float* part = reinterpret_cast<float*>(reinterpret_cast<char*>(smem) + size_t{kStages} * kTileBytes);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int64_t tiles_total = len / kTile, per = (tiles_total + splits - 1) / splits;
  const int64_t first = min(tiles_total, blockIdx.x * per), count = min(tiles_total, first + per) - first;
  const int j0 = warp * kSlice;  // this warp's latent slice

  // Q_lat A fragments for the slice: k-step ks covers dims j0 + 16ks .. +15. a0: head g, dims 2t, 2t+1;
  // a1: head g+8, same dims; a2: head g, dims 2t+8, 2t+9; a3: head g+8, those.
  uint32_t qa[kSlice / 16][4];
#pragma unroll
  for (int ks = 0; ks < kSlice / 16; ++ks) {
    const int j = j0 + 16 * ks + 2 * t;
    const float* rg = q_lat + g * kLatent + j;
    const float* rg8 = q_lat + (g + 8) * kLatent + j;
    qa[ks][0] = pack2(rg[0], rg[1]), qa[ks][1] = pack2(rg8[0], rg8[1]);
    qa[ks][2] = pack2(rg[8], rg[9]), qa[ks][3] = pack2(rg8[8], rg8[9]);
  }
  // o_lat accumulators: n-tile nt = dims j0 + 8nt .. +7; c0, c1: head g, dims 2t, 2t+1; c2, c3: head g+8.
  float acc[kSlice / 8][4];
#pragma unroll
  for (int nt = 0; nt < kSlice / 8; ++nt) acc[nt][0] = acc[nt][1] = acc[nt][2] = acc[nt][3] = 0.0f;
  float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};  // rows g and g+8; l: this lane's tokens only

  auto issue = [&](int64_t i) {  // tile i of this CTA into stage i % kStages, chunks swizzled
    if (i < count) {
      const uint4* src = reinterpret_cast<const uint4*>(c + (first + i) * kTile * kLatent);
      uint4* dst = reinterpret_cast<uint4*>(tiles + (i % kStages) * (kTile * kLatent));
      for (int b = threadIdx.x; b < kTile * kChunks; b += kThreadsTc) {
        const int r = b / kChunks, ch = b % kChunks;
        cp_async16(dst + r * kChunks + (ch ^ (r & 7)), src + b);
      }
    }
    cp_async_commit();  // an empty group past the end keeps the wait count uniform
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) issue(s);

  for (int64_t i = 0; i < count; ++i) {
    cp_async_wait<kStages - 2>();  // tile i has landed (this thread's part) ...
    __syncthreads();               // ... and everyone's; stage (i-1) % kStages and `part` are free again
    issue(i + kStages - 1);
    const __nv_bfloat16* tile = tiles + (i % kStages) * (kTile * kLatent);

    // Partial scores over this warp's slice. B (k = latent dim, n = token): b0 = dims 2t, 2t+1 of token
    // 8h + g, b1 = dims 2t+8, 2t+9: two adjacent bf16 of one row, one 32-bit load each.
    float sp[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
#pragma unroll
    for (int ks = 0; ks < kSlice / 16; ++ks) {
      const int j = j0 + 16 * ks + 2 * t;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = 8 * h + g;
        const uint32_t b0 = *reinterpret_cast<const uint32_t*>(tile + swz(r, j));
        const uint32_t b1 = *reinterpret_cast<const uint32_t*>(tile + swz(r, j + 8));
        mma_bf16(sp[h], qa[ks][0], qa[ks][1], qa[ks][2], qa[ks][3], b0, b1);
      }
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) part[(warp * 8 + e) * 32 + lane] = sp[e / 4][e % 4];
    __syncthreads();
    // Full scores, the same fixed order in every warp. s[h][0..1]: head g, tokens 8h+2t, 8h+2t+1;
    // s[h][2..3]: head g+8, same tokens. Already in log2 units (q_lat carries log2 e / sqrt(128)).
    float s[2][4];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      float v = part[e * 32 + lane];
#pragma unroll
      for (int w = 1; w < kWarpsTc; ++w) v += part[(w * 8 + e) * 32 + lane];
      s[e / 4][e % 4] = v;
    }
    float alpha[2];
    online_softmax_rows(s, m, l, alpha);
    // P as the A operand (M = heads, K = the tile's 16 tokens): a0 = head g, tokens 2t, 2t+1 (s[0][0..1]);
    // a1 = head g+8, same tokens (s[0][2..3]); a2 = head g, tokens 8+2t, 9+2t (s[1][0..1]); a3 = head g+8.
    const uint32_t pa0 = pack2(s[0][0], s[0][1]), pa1 = pack2(s[0][2], s[0][3]);
    const uint32_t pa2 = pack2(s[1][0], s[1][1]), pa3 = pack2(s[1][2], s[1][3]);
    // B (k = token, n = latent dim): b0 = tokens 2t, 2t+1 of dim n, b1 = tokens 2t+8, 2t+9.
#pragma unroll
    for (int nt = 0; nt < kSlice / 8; ++nt) {
      const int j = j0 + 8 * nt + g;
      const uint32_t b0 = pack2(tile[swz(2 * t, j)], tile[swz(2 * t + 1, j)]);
      const uint32_t b1 = pack2(tile[swz(2 * t + 8, j)], tile[swz(2 * t + 9, j)]);
      acc[nt][0] *= alpha[0], acc[nt][1] *= alpha[0], acc[nt][2] *= alpha[1], acc[nt][3] *= alpha[1];
      mma_bf16(acc[nt], pa0, pa1, pa2, pa3, b0, b1);
    }
  }
  cp_async_wait<0>();

  // One partial per head: o_lat unnormalized over this CTA's tokens, the running max and the row sum.
#pragma unroll
  for (int row = 0; row < 2; ++row) {
    l[row] += __shfl_xor_sync(0xffffffffu, l[row], 1);
    l[row] += __shfl_xor_sync(0xffffffffu, l[row], 2);
  }
  const int64_t slot_g = int64_t(blockIdx.x) * kHeads + g, slot_g8 = slot_g + 8;
#pragma unroll
  for (int nt = 0; nt < kSlice / 8; ++nt) {
    const int j = j0 + 8 * nt + 2 * t;
    *reinterpret_cast<float2*>(part_o + slot_g * kLatent + j) = make_float2(acc[nt][0], acc[nt][1]);
    *reinterpret_cast<float2*>(part_o + slot_g8 * kLatent + j) = make_float2(acc[nt][2], acc[nt][3]);
  }
  if (warp == 0 && t == 0) {  // m and l are the same in every warp (identical scores)
    part_ml[slot_g] = make_float2(m[0], l[0]);
    part_ml[slot_g8] = make_float2(m[1], l[1]);
  }
}

class OptimizedMlaAbsorbedTc : public MlaAbsorbedBase {
 public:
  std::string technique() const override {
    return "MLA weight absorption on tensor cores: latent scores and P x C as mma.sync (M = 16 heads)";
  }
  void run(aisp::Context& ctx) override { run_absorbed(ctx, attend_latent_tc, kThreadsTc, kSmemTc); }

 protected:
  // 2 CTAs (8 warps) per SM: enough warps to overlap one CTA's mma with the other's waits; more CTAs
  // would only add partials (each 32 KB) for combine_latent to read.
  void prepare(aisp::Context& ctx) override { prepare_absorbed(ctx, attend_latent_tc, kThreadsTc, kSmemTc, kTile, 2); }
};

}  // namespace

AISP_BENCHMARK(OptimizedMlaAbsorbedTc)
