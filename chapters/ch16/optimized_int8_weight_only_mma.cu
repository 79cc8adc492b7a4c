// ch16 int8_weight_only, optimized (`_mma`): the same int8 weights and per-row FP32 scales
// (int8_weight_only.cuh), but the multiply-adds run on the tensor cores (mma.sync m16n8k16, BF16 operands,
// FP32 accumulate): int8 -> bf16 in registers, Marlin-style.
//
// Why: at M = 4 the CUDA-core kernel (optimized_int8_weight_only.cu) spends ~7.5 instructions per weight
// (4 FFMA, the int8 and bf16 conversions). An SM issues 4 warp-instructions = 128 thread-instructions per
// clock, i.e. ~17 weights/clk at that cost, while the H200 must take 4.8 TB/s / 132 SMs / 1.98 GHz = 18.4 int8
// weights/clk per SM to read W at full HBM3e speed (the H100: 12.8), so that kernel is instruction-bound on
// the H200 (measured 31.5 us, ~1.9 TB/s, against cuBLAS BF16's 33.3 us). Here the 4 FMAs per weight become
// one mma per 256 weights and the conversion is ~2.75 instructions per weight (PRMT + FADD per weight, one
// PRMT per pair, one XOR per 4): ~3.1 instructions per weight in all (PTX of the loop: 192 PRMT, 128 FADD,
// 32 XOR, 16 loads, 16 mma per 128 weights a lane), ~41 weights/clk per SM of issue: over 2x headroom.
//
// Layout, and why no repacking of W is needed: the dot product over k may be taken in any order, as long as
// A (W) and B (X) use the same one. In a 64-wide chunk of k, lane (g = lane/4, t = lane%4) owns k = 16t ..
// 16t+15; mma step s (0..3) feeds it k = 16t+4s+{0,1} as fragment columns 2t, 2t+1 and 16t+4s+{2,3} as
// columns 2t+8, 2t+9. So a lane's A fragments for the 4 steps are 16 consecutive int8 of row g and of row
// g+8 (two 16-byte loads), and its B fragments are 16 consecutive bf16 of token g (two 16-byte loads, used
// as they are: no conversion). The mma's 8 columns are the tokens; columns 4-7 are zeros (B from lanes with
// g >= 4), so half of each mma is wasted, which costs nothing here: the tensor cores are nearly idle.
// int8 values in [-127, 127] are exact in bf16 (8 significant bits), so the operands are the same numbers the
// CUDA-core variant multiplies and the sums are FP32 in both (different order: inside the tolerance).
//
// Work split: a block owns 16 rows of W (one m16 tile), its 8 warps split K (512 each = 8 chunks, loaded 4
// chunks = 4 KiB of W per warp at a time), and a shared-memory sum over the warps finishes each output;
// 896 blocks. W is streamed with an evict-first load and a 256-byte L2 prefetch hint (the 4 chunks of a batch
// are 256 consecutive bytes of each row).
// Expected on the H200: W (58.7 MB) at ~3.5-4 TB/s = 15-17 us + launch: ~1.7-1.9x over cuBLAS BF16.
// Measured (H200, 2026-11-28, docs/measurements/session_20261128b.md, `aisp bench run -t ch16:int8_weight_only
// ch10:gemm_epilogue_fusion --time-limit 5 --update-expectations --accept-regressions`, cold mode, 19/19 checks):
// 22.5 us against cuBLAS BF16's 33.6 us, 1.494x [1.467, 1.521], FASTER; max |diff| vs the baseline 0.5 (one bf16
// ulp at |y| ~ 100). W moves at 2.61 TB/s, 57% of `aisp hw memory`'s H200 read figure (4545 GB/s,
// docs/measurements/hw_peak_h200_20261125.txt); cuBLAS reads its BF16 W at 3.50 TB/s (77%). Short of the
// expected 15-17 us; not profiled. Candidates: each warp's strict load -> convert -> mma phases (16 warps per SM
// at 91 registers, nothing loaded while a batch is converted), 3.4 waves of blocks, launch and drain inside a
// ~20 us window. Not measured on the H100 (none was lent in this session).
#include "int8_weight_only.cuh"

namespace {

constexpr int kTokens = 4;     // M, fixed by the pair
constexpr int kWarps = 8;      // per block, splitting K
constexpr int kTileRows = 16;  // rows per block: the mma's M
constexpr int kChunkK = 64;    // k per chunk: 4 mma steps of 16
constexpr int kBatch = 4;      // chunks loaded together per warp (4 KiB of W in flight)

__device__ __forceinline__ uint4 ld_stream_256(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// Four int8 (one word) -> two bf16x2 words: {w0, w1} and {w2, w3} (low half = the lower k). The floats are
// integers in [-127, 127], so taking their high halves is an exact conversion to bf16.
__device__ __forceinline__ void int8x4_to_bf16x4(uint32_t word, uint32_t& lo, uint32_t& hi) {
  float f[4];
  int8x4_to_float(word, f);
  lo = __byte_perm(__float_as_uint(f[0]), __float_as_uint(f[1]), 0x7632);
  hi = __byte_perm(__float_as_uint(f[2]), __float_as_uint(f[3]), 0x7632);
}

__device__ __forceinline__ void mma_bf16_16816(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                               uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

__global__ void __launch_bounds__(kWarps * 32, 2)
    gemv_int8_mma(const int8_t* __restrict__ q, const float* __restrict__ scale, const __nv_bfloat16* __restrict__ x,
                  __nv_bfloat16* __restrict__ y, int n, int k) {
  __shared__ float partial[kWarps][kTileRows][kTokens];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int row0 = blockIdx.x * kTileRows;
  const int k_per_warp = k / kWarps;
  const int8_t* w_lo = q + static_cast<int64_t>(row0 + g) * k + warp * k_per_warp + 16 * t;  // row g
  const int8_t* w_hi = w_lo + static_cast<int64_t>(8) * k;                                   // row g + 8
  const __nv_bfloat16* xg = x + static_cast<int64_t>(g < kTokens ? g : 0) * k + warp * k_per_warp + 16 * t;
  float acc[2][4] = {};  // even and odd mma steps: two dependency chains instead of one
  for (int kb = 0; kb < k_per_warp; kb += kBatch * kChunkK) {
    uint4 wl[kBatch], wh[kBatch], xa[kBatch], xb[kBatch];
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      wl[i] = ld_stream_256(w_lo + kb + i * kChunkK);
      wh[i] = ld_stream_256(w_hi + kb + i * kChunkK);
    }
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      if (g < kTokens) {
        const uint4* xp = reinterpret_cast<const uint4*>(xg + kb + i * kChunkK);
        xa[i] = __ldg(xp), xb[i] = __ldg(xp + 1);
      } else {
        xa[i] = xb[i] = make_uint4(0, 0, 0, 0);  // mma columns 4-7: no token
      }
    }
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      const uint32_t lo[4] = {wl[i].x, wl[i].y, wl[i].z, wl[i].w}, hi[4] = {wh[i].x, wh[i].y, wh[i].z, wh[i].w};
      const uint32_t xw[8] = {xa[i].x, xa[i].y, xa[i].z, xa[i].w, xb[i].x, xb[i].y, xb[i].z, xb[i].w};
#pragma unroll
      for (int s = 0; s < 4; ++s) {  // step s: k = 16t + 4s + {0,1} (a0/a1, b0) and + {2,3} (a2/a3, b1)
        uint32_t a0, a1, a2, a3;
        int8x4_to_bf16x4(lo[s], a0, a2);  // row g:     a0 = cols 2t, 2t+1;  a2 = cols 2t+8, 2t+9
        int8x4_to_bf16x4(hi[s], a1, a3);  // row g + 8: a1, a3 the same columns
        mma_bf16_16816(acc[s % 2], a0, a1, a2, a3, xw[2 * s], xw[2 * s + 1]);
      }
    }
  }
  // c[0], c[1]: row g, tokens 2t, 2t+1; c[2], c[3]: row g + 8. Tokens exist for t < 2 only.
  const float c[4] = {acc[0][0] + acc[1][0], acc[0][1] + acc[1][1], acc[0][2] + acc[1][2], acc[0][3] + acc[1][3]};
  if (t < 2) {
    partial[warp][g][2 * t] = c[0];
    partial[warp][g][2 * t + 1] = c[1];
    partial[warp][g + 8][2 * t] = c[2];
    partial[warp][g + 8][2 * t + 1] = c[3];
  }
  __syncthreads();
  if (threadIdx.x < kTileRows * kTokens) {
    const int token = threadIdx.x / kTileRows, r = threadIdx.x % kTileRows;  // consecutive threads: consecutive rows
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) v += partial[w][r][token];
    y[static_cast<int64_t>(token) * n + row0 + r] = __float2bfloat16_rn(v * scale[row0 + r]);
  }
}

class OptimizedInt8WeightOnlyMma : public Int8QuantizedBase {
 public:
  void run(aisp::Context& ctx) override {
    const int n = static_cast<int>(ctx.param("n")), k = static_cast<int>(ctx.param("k"));
    gemv_int8_mma<<<static_cast<unsigned>(n / kTileRows), kWarps * 32, 0, ctx.stream()>>>(
        q_, scale_, ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("y").as<__nv_bfloat16>(), n, k);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override {
    return "int8 weights + per-row FP32 scales (quantized in setup), int8 -> bf16 in registers, mma.sync "
           "m16n8k16 (tokens as the N = 8 side), FP32 accumulate";
  }

 protected:
  void check_shape(int64_t m, int64_t n, int64_t k) const override {
    if (m != kTokens || n % kTileRows || k % (kWarps * kBatch * kChunkK))
      throw std::runtime_error("int8_weight_only_mma: the kernel is written for m = 4, n % 16 == 0, k % 2048 == 0");
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedInt8WeightOnlyMma)
