// ch18 mla_latent_kv, optimized: MLA weight absorption, attention over the 512-wide latent cache.
//
// Kept as the pair's measured negative: the CUDA-core form of the technique (its SLOWER verdict does not fail
// the target while the tensor-core variant wins; informational() is for machine-dependent benefits only).
// Technique, four small kernels around one that reads the cache (1, 3, 4 in mla_absorbed.cuh, shared with
// the tensor-core variant optimized_mla_latent_kv_tc.cu):
//  1. absorb_q: q_lat_h[j] = (log2 e / sqrt(128)) * sum_d q_h[d] w_uk_h[j][d], fp32 [16][512].
//  2. attend_latent: one CTA of 16 warps per SM (grid = SM count), each a range of whole 16-token tiles.
//     A tile (16 latent rows, 16 KB) is staged in shared memory by cp.async, 3 stages deep, so HBM reads
//     overlap compute; every row is read from HBM once and used by all 16 heads. Warp w owns heads
//     2(w%8), 2(w%8)+1 and rows 0-7 (w < 8) or 8-15 of each tile; lane i holds dims 8i..8i+7 and
//     256+8i..+7 (conflict-free 16-byte shared loads). Per 2 rows a warp scores both heads (fp32 FMAs,
//     warp reductions), updates its online softmax and accumulates the weighted latent rows. The two row
//     halves merge through shared memory and the CTA writes one partial (o_lat, max, sum) per head.
//  3. combine_latent: merges the partials into o_lat [16][512].
//  4. up_project: o_h[d] = sum_j o_lat_h[j] w_uv_h[j][d], o in bf16.
// Why it should be faster: 1 KB per cached token instead of 8 KB: 16.8 MB per step instead of 134 MB.
// Why it is not: the price is arithmetic. 16 heads x 512 dims per row for scores and for the weighted sum
// = 32 kFLOP per cached token (32 FLOP per byte read) against the baseline's 8 kFLOP (1 FLOP/B); the H100's
// fp32 CUDA-core ridge is ~67 TFLOP/s / 3.35 TB/s = 20 FLOP/B, so this kernel is compute-bound: ~0.54
// GFLOP, with the bf16 conversions, shuffles and softmax ~1200 warp instructions per token, 19.7M in all,
// >= 19 us at a perfect 4 warp instructions per clock per SM, ~40 us as issued. The baseline reads 134 MB
// in ~50 us. FlashMLA moves both products onto tensor cores (ridge ~295 FLOP/B): optimized_mla_latent_kv_tc.cu.
// Measured (H100 SXM, harness cold mode, 2026-11-28, first version): 116.9 us against 69.2 us, SLOWER
// (0.59x), all 19 checks passed (serial merge/up-projection loops, rewritten). This version (H100 80GB HBM3,
// 2026-11-28, `aisp bench run -t ch18:mla_latent_kv --time-limit 5`, every check passed): 64.0 us against
// 58.8 us, 0.918x [0.901, 0.934], SLOWER: the measured negative the arithmetic above predicts. Again in the
// closing calls (docs/measurements/closing_calls_20261128.md): H100 64.5 us against 59.4 us, 0.921x; H200
// 61.7 us against 46.6 us, 0.755x [0.741, 0.769] (the H200's HBM speeds the baseline, not this kernel).
#include <stdexcept>

#include "mla_absorbed.cuh"

namespace {

using namespace mla;

constexpr int kTile = 16, kSub = 2, kStages = 3, kThreads = 512;  // 2 row halves x 8 warps x 2 heads
constexpr int kTileBytes = kTile * kLatent * 2;
constexpr size_t kSmem = size_t{kStages} * kTileBytes;

// This lane's 16 dims of a latent row in shared memory: 8i..8i+7 and 256+8i..256+8i+7.
__device__ __forceinline__ void lane_dims(const __nv_bfloat16* row, float (&f)[16]) {
  const int lane = threadIdx.x % 32;
  float a[8], b[8];
  ch18::bf16x8_to_float(*reinterpret_cast<const uint4*>(row + 8 * lane), a);
  ch18::bf16x8_to_float(*reinterpret_cast<const uint4*>(row + 256 + 8 * lane), b);
#pragma unroll
  for (int i = 0; i < 8; ++i) f[i] = a[i], f[8 + i] = b[i];
}

__global__ void __launch_bounds__(kThreads, 1)
    attend_latent(const __nv_bfloat16* __restrict__ c, const float* __restrict__ q_lat, int64_t len, int splits,
                  float* __restrict__ part_o, float2* __restrict__ part_ml) {
  extern __shared__ uint4 smem[];
  auto* tiles = reinterpret_cast<__nv_bfloat16*>(smem);
  const int warp = (threadIdx.x / 32) % 8, half = threadIdx.x / 256, lane = threadIdx.x % 32;
  const int64_t tiles_total = len / kTile, per = (tiles_total + splits - 1) / splits;
  const int64_t first = min(tiles_total, blockIdx.x * per), count = min(tiles_total, first + per) - first;

  float ql[2][16], acc[2][16], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
#pragma unroll
  for (int hh = 0; hh < 2; ++hh) {
    const float* src = q_lat + (2 * warp + hh) * kLatent;
#pragma unroll
    for (int i = 0; i < 8; ++i) ql[hh][i] = src[8 * lane + i], ql[hh][8 + i] = src[256 + 8 * lane + i];
#pragma unroll
    for (int i = 0; i < 16; ++i) acc[hh][i] = 0.0f;
  }

  auto issue = [&](int64_t i) {  // tile i of this CTA into stage i % kStages (every thread: 2 x 16 B)
    if (i < count) {
      const char* src = reinterpret_cast<const char*>(c + (first + i) * kTile * kLatent);
      char* dst = reinterpret_cast<char*>(tiles) + (i % kStages) * kTileBytes;
      for (int b = threadIdx.x * 16; b < kTileBytes; b += kThreads * 16) cp_async16(dst + b, src + b);
    }
    cp_async_commit();  // an empty group past the end keeps the wait count uniform
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) issue(s);

  for (int64_t i = 0; i < count; ++i) {
    cp_async_wait<kStages - 2>();  // tile i has landed (this thread's part) ...
    __syncthreads();               // ... and everyone's; stage (i-1) % kStages is free again
    issue(i + kStages - 1);
    const __nv_bfloat16* tile = tiles + (i % kStages) * (kTile * kLatent);
#pragma unroll 1
    for (int r0 = half * (kTile / 2); r0 < (half + 1) * (kTile / 2); r0 += kSub) {  // 2 rows: 128 registers
      float s[2][kSub];
#pragma unroll
      for (int r = 0; r < kSub; ++r) {
        float f[16];
        lane_dims(tile + (r0 + r) * kLatent, f);
#pragma unroll
        for (int hh = 0; hh < 2; ++hh) {
          float d = 0.0f;
#pragma unroll
          for (int k = 0; k < 16; ++k) d = fmaf(ql[hh][k], f[k], d);
          s[hh][r] = d;
        }
      }
#pragma unroll
      for (int hh = 0; hh < 2; ++hh) {
#pragma unroll
        for (int r = 0; r < kSub; ++r)
#pragma unroll
          for (int o = 16; o > 0; o /= 2) s[hh][r] += __shfl_xor_sync(0xffffffffu, s[hh][r], o);
        float mx = m[hh];
#pragma unroll
        for (int r = 0; r < kSub; ++r) mx = fmaxf(mx, s[hh][r]);
        const float alpha = exp2f(m[hh] - mx);  // m = -inf before the first rows: alpha 0, rows are finite
        m[hh] = mx;
        l[hh] *= alpha;
#pragma unroll
        for (int k = 0; k < 16; ++k) acc[hh][k] *= alpha;
#pragma unroll
        for (int r = 0; r < kSub; ++r) {
          s[hh][r] = exp2f(s[hh][r] - mx);
          l[hh] += s[hh][r];
        }
      }
#pragma unroll
      for (int r = 0; r < kSub; ++r) {
        float f[16];
        lane_dims(tile + (r0 + r) * kLatent, f);
#pragma unroll
        for (int hh = 0; hh < 2; ++hh)
#pragma unroll
          for (int k = 0; k < 16; ++k) acc[hh][k] = fmaf(s[hh][r], f[k], acc[hh][k]);
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();                                    // the stages are free: rows 8-15's states go there for the merge
  float* other_acc = reinterpret_cast<float*>(smem);  // [16 heads][512]
  float2* other_ml = reinterpret_cast<float2*>(other_acc + kHeads * kLatent);  // [16 heads]
  if (half == 1) {
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      float* dst = other_acc + (2 * warp + hh) * kLatent;
#pragma unroll
      for (int i = 0; i < 8; ++i) dst[8 * lane + i] = acc[hh][i], dst[256 + 8 * lane + i] = acc[hh][8 + i];
      if (lane == 0) other_ml[2 * warp + hh] = make_float2(m[hh], l[hh]);
    }
  }
  __syncthreads();
  if (half == 0) {
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      const int head = 2 * warp + hh;
      const float2 o_ml = other_ml[head];
      const float mx = fmaxf(m[hh], o_ml.x), m_use = mx == -INFINITY ? 0.0f : mx;  // -inf: an empty split
      const float f_self = exp2f(m[hh] - m_use), f_other = exp2f(o_ml.x - m_use);
      const float* src = other_acc + head * kLatent;
      const int64_t slot = int64_t(blockIdx.x) * kHeads + head;
      float* dst = part_o + slot * kLatent;
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        dst[8 * lane + i] = f_self * acc[hh][i] + f_other * src[8 * lane + i];
        dst[256 + 8 * lane + i] = f_self * acc[hh][8 + i] + f_other * src[256 + 8 * lane + i];
      }
      if (lane == 0) part_ml[slot] = make_float2(mx, f_self * l[hh] + f_other * o_ml.y);
    }
  }
}

class OptimizedMlaAbsorbed : public MlaAbsorbedBase {
 public:
  std::string technique() const override {
    return "MLA weight absorption: attention over the 512-wide latent cache (1 KB per token)";
  }
  // The measured negative: on CUDA cores the absorbed form is compute-bound (32 FLOP per cached byte
  // against the fp32 ridge of ~20 FLOP/B), so reading 8x fewer bytes does not make it faster than the
  // bandwidth-bound full-head baseline. optimized_mla_latent_kv_tc.cu is the pair's answer.
  void run(aisp::Context& ctx) override { run_absorbed(ctx, attend_latent, kThreads, kSmem); }

 protected:
  // As many CTAs per SM as are resident, no cap (16 warps each: one per SM, see the header).
  void prepare(aisp::Context& ctx) override { prepare_absorbed(ctx, attend_latent, kThreads, kSmem, kTile, INT_MAX); }
};

}  // namespace

AISP_BENCHMARK(OptimizedMlaAbsorbed)
