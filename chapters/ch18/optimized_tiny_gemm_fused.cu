// ch18 tiny_gemm_fused, optimized: RMSNorm + gate_up GEMM + SiLU-and-mul in one kernel, on tensor cores.
//
// Technique: 128 CTAs of 8 warps, each CTA 64 output columns (rows of W_gate and of W_up). Each warp first
// requests its first 16 weight loads, then (warp m) normalizes token row m into shared memory (the same
// rms_inverse / norm_chunk as the baseline: identical xn bits). Main loop: warp (tile, khalf) owns 16 rows
// of W_gate and the same 16 of W_up and half of K; per 32-wide slice of K each lane loads 16 bytes of 4
// weight rows (gate and up, rows g and g+8) and one 16-byte chunk of its token's xn from shared memory,
// and issues 4 mma.sync.m16n8k16 (bf16 in, fp32 accumulate): the 8 decode tokens are exactly the n = 8 of
// the instruction. The K positions inside each slice are permuted identically for W and xn so that every
// fragment register comes from one 16-byte load (a dot product does not care in which order it sums).
// Weights are double-buffered in registers (2 x 16 loads of 16 bytes per lane; __launch_bounds__(256, 1):
// 165 registers, no spills): the next 4 slices are in flight while this 4's mma run. The two K halves
// meet in shared memory; the epilogue writes h = silu(g) * u from the accumulators. Nothing but the
// weights (and 64 KB of x, from L2) is read and only h is written; one launch.
// Why it is faster: the step is a 134 MB weight read; the baseline pays it inside cuBLAS plus two more
// launches (ramps, tails) and an fp32 intermediate. Here the arithmetic is ~4 tensor-core instructions
// per 64 bytes per lane, so the loop is pure streaming if enough bytes are in flight: 3.3 TB/s x ~1.5 us
// loaded HBM latency = ~5 MB across the GPU, ~40 KB per SM. 8 warps x 32 lanes x 16-32 x 16 B = 64-128 KB.
// Expected on Hopper: ~85% of HBM bandwidth on 134 MB plus the ~3 us ramp: ~50-55 us against the
// baseline's ~66 us (~1.2-1.3x).
// Measured (H100 SXM, 2026-11-28, first version, CUDA cores: fp32 FMAs on bf16 converted in registers,
// scalar RMSNorm prologue, uneven rows per warp): 113.0 us against 70.8 us, SLOWER (0.63x), all 19 checks
// passed. Second version (tensor cores, single-buffered, H100 2026-11-28, --time-limit 5): 78.8 us against
// 65.6 us, 0.832x, all checks passed. Why: ptxas gave that loop 60 registers, so the "16 loads in flight"
// were never all in flight (16 x 16 B alone needs 64 registers): it interleaved loads and mma, a lane had
// a few 16-byte loads outstanding, ~20-30 KB per SM, below what HBM latency needs; and the RMSNorm
// prologue (~5 dependent L2 round trips) ran before the first weight byte was requested. This version
// fixes both with the same mma sequence (bit-identical h). Measured (2026-11-28,
// docs/measurements/closing_calls_20261128.md, all checks passed): H100 80GB HBM3 52.4 us against 65.4 us,
// 1.247x [1.225, 1.270], FASTER; H200 39.4 us against 49.9 us, 1.266x [1.242, 1.289], FASTER.
#include <cstdint>

#include "tiny_gemm_fused.cuh"

namespace {

using namespace tiny_gemm;

constexpr int kWarps = 8, kRowsPerCta = 64;
constexpr int kXStride = kHidden / 8 + 1;  // uint4 per shared xn row; +1 puts the 8 rows on different banks
constexpr int kKHalf = kHidden / 2;        // each warp's share of K
constexpr size_t kSmem = size_t{kTokens} * kXStride * 16 + size_t{4} * 32 * 8 * 4;

__device__ __forceinline__ void mma_bf16(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                         uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Lane (g = lane/4, t = lane%4) holds, for a 32-wide K slice at k0, physical k0+8t .. k0+8t+7 of rows g and
// g+8 (A) and of token g (B). mma 1 takes physical 8t+0..3 as logical {2t, 2t+1, 2t+8, 2t+9}, mma 2 takes
// 8t+4..7: the same map for A and B, so each product pairs the right weight with the right activation.
__device__ __forceinline__ void slice_mma(float (&c)[4], const uint4& row_g, const uint4& row_g8, const uint4& x) {
  mma_bf16(c, row_g.x, row_g8.x, row_g.y, row_g8.y, x.x, x.y);
  mma_bf16(c, row_g.z, row_g8.z, row_g.w, row_g8.w, x.z, x.w);
}

__global__ void __launch_bounds__(kWarps * 32, 1)
    fused_norm_gate_up(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ gamma,
                       const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ h) {
  extern __shared__ uint4 smem[];
  uint4* xs = smem;                                                  // [8][kXStride]
  float* red = reinterpret_cast<float*>(smem + kTokens * kXStride);  // [4 tiles][32 lanes][8]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile = warp % 4, khalf = warp / 4, g = lane / 4, t = lane % 4;
  const int n0 = blockIdx.x * kRowsPerCta + tile * 16;
  constexpr int kRowChunks = kHidden / 8;  // uint4 per weight row
  const uint4* gate0 = reinterpret_cast<const uint4*>(w) + int64_t(n0 + g) * kRowChunks;
  const uint4* gate8 = gate0 + 8 * kRowChunks;
  const uint4* up0 = gate0 + int64_t(kInter) * kRowChunks;
  const uint4* up8 = up0 + 8 * kRowChunks;
  const int first = khalf * (kKHalf / 8), last = first + kKHalf / 8;  // in uint4 chunks
  static_assert((kKHalf / 8) % 32 == 0, "the main loop takes two 16-chunk steps at a time");
  // One step = 4 K slices: 16 loads of 16 bytes per lane (rows g and g+8 of gate and of up), all issued
  // before the step's first mma.
  auto load_step = [&](uint4 (&r)[4][4], int c0) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      r[0][i] = __ldg(gate0 + c0 + 4 * i), r[1][i] = __ldg(gate8 + c0 + 4 * i);
      r[2][i] = __ldg(up0 + c0 + 4 * i), r[3][i] = __ldg(up8 + c0 + 4 * i);
    }
  };
  // The first step's weights are requested before the RMSNorm prologue: HBM streams while the CTA
  // normalizes (the prologue is a few dependent round trips to L2, ~2-4 us on the critical path otherwise).
  uint4 wa[4][4], wb[4][4];
  load_step(wa, first + t);
  {
    const __nv_bfloat16* row = x + static_cast<int64_t>(warp) * kHidden;
    const float r = rms_inverse(row, kHidden);
    const uint4* xr = reinterpret_cast<const uint4*>(row);
    const uint4* gr = reinterpret_cast<const uint4*>(gamma);
#pragma unroll 4
    for (int c = lane; c < kHidden / 8; c += 32) xs[warp * kXStride + c] = norm_chunk(__ldg(xr + c), __ldg(gr + c), r);
  }
  __syncthreads();

  const uint4* xg = xs + g * kXStride;
  float cg[4] = {0, 0, 0, 0}, cu[4] = {0, 0, 0, 0};
  auto mma_step = [&](const uint4 (&r)[4][4], int c0) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const uint4 xv = xg[c0 + 4 * i];
      slice_mma(cg, r[0][i], r[1][i], xv);
      slice_mma(cu, r[2][i], r[3][i], xv);
    }
  };
  // Double-buffered in registers: the next step's 16 loads are in flight while this step's 16 mma run, so a
  // lane always has 16-32 loads outstanding (the first tensor-core version loaded, waited, then computed:
  // its loads in flight fell to zero once per step). Same mma order as before: slices in increasing K.
  for (int c0 = first + t; c0 < last; c0 += 32) {
    load_step(wb, c0 + 16);
    mma_step(wa, c0);
    if (c0 + 32 < last) load_step(wa, c0 + 32);
    mma_step(wb, c0 + 16);
  }
  float* mine = red + (tile * 32 + lane) * 8;
  if (khalf == 1) {
#pragma unroll
    for (int i = 0; i < 4; ++i) mine[i] = cg[i], mine[4 + i] = cu[i];
  }
  __syncthreads();
  if (khalf == 0) {
#pragma unroll
    for (int i = 0; i < 4; ++i) cg[i] += mine[i], cu[i] += mine[4 + i];
    // c0, c1: weight row n0+g, tokens 2t, 2t+1; c2, c3: row n0+g+8, same tokens.
    h[int64_t(2 * t) * kInter + n0 + g] = __float2bfloat16_rn(silu_mul(cg[0], cu[0]));
    h[int64_t(2 * t + 1) * kInter + n0 + g] = __float2bfloat16_rn(silu_mul(cg[1], cu[1]));
    h[int64_t(2 * t) * kInter + n0 + g + 8] = __float2bfloat16_rn(silu_mul(cg[2], cu[2]));
    h[int64_t(2 * t + 1) * kInter + n0 + g + 8] = __float2bfloat16_rn(silu_mul(cg[3], cu[3]));
  }
}

class OptimizedTinyGemm : public TinyGemmFusedBase {
 public:
  std::string technique() const override {
    return "one kernel: RMSNorm to smem, gate/up rows streamed into mma.sync (n = 8 tokens), SiLU*up epilogue";
  }
  void run(aisp::Context& ctx) override {
    fused_norm_gate_up<<<kInter / kRowsPerCta, kWarps * 32, kSmem, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("gamma").as<const __nv_bfloat16>(),
        ctx.buffer("w_gate_up").as<const __nv_bfloat16>(), ctx.buffer("h").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context&) override {
    AISP_CUDA_CHECK(
        cudaFuncSetAttribute(fused_norm_gate_up, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kSmem)));
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedTinyGemm)
