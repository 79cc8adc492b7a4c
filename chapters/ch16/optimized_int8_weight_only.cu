// ch16 int8_weight_only, optimized: int8 weights with per-row FP32 scales, dequantized in registers by a
// GEMV-style kernel (int8_weight_only.cuh).
//
// Technique: setup() quantizes the static BF16 W once (one warp per row: amax, scale = amax/127,
// q = rint(w/scale)). run() launches one kernel: each warp owns kRows = 4 output rows; per step every lane
// loads 16 int8 of each of its 4 rows (four 16-byte loads in flight) and the matching 16 x values of each
// of the M = 4 tokens (L1-resident: X is 32 KiB), converts int8 -> fp32 with the magic-number trick (byte
// into the mantissa of 2^23, one PRMT + one FADD instead of a quarter-rate I2F), and accumulates 16 FP32
// sums per lane; a warp reduction and the row scale finish each output.
// Why it is faster: the layer is memory bound (4 FLOPs per weight byte at BF16), and int8 halves the bytes
// of W: 58.7 MB instead of 117 MB. Work per weight (~7 instructions) stays under the SM's issue rate at
// HBM speed (12.8 B/clk/SM at 3.35 TB/s), so the halved traffic turns into time.
// Expected on H100: ~25 us, ~1.7x over cuBLAS BF16. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 32.4 us (1.81 TB/s of int8 W), 1.37x [1.35, 1.40]. On the H200
// (docs/measurements/closing_calls_20261128.md, call C): 31.5 us against 33.3 us, 1.059x [1.040, 1.078],
// INCONCLUSIVE: the BF16 baseline reads W at ~3.5 TB/s there, this kernel does not get faster (instruction-bound:
// ~7.5 instructions per weight, i.e. ~17 weights/clk per SM of issue, where the H200's HBM delivers 18.4 B/clk per
// SM). Again 2026-11-28 (docs/measurements/session_20261128b.md): 31.5 us vs 33.6 us, 1.068x [1.049, 1.088],
// INCONCLUSIVE. optimized_int8_weight_only_mma.cu moves the multiply-adds to the tensor cores (1.49x there).
// The quantization in setup() is int8_weight_only.cuh's (Int8QuantizedBase), shared with that variant.
#include "int8_weight_only.cuh"

namespace {

constexpr int kRows = 4;    // output rows per warp
constexpr int kTokens = 4;  // M, fixed by the pair
constexpr int kWarps = 8;   // per block
constexpr int kChunk = 16;  // int8 weights per lane per step (one 16-byte load per row)

// Two packed bf16 -> two floats (a bf16 is the high half of a float).
__device__ __forceinline__ float2 bf16x2_to_float2(uint32_t u) {
  return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
}

__global__ void __launch_bounds__(kWarps * 32)
    gemv_int8_weights(const int8_t* __restrict__ q, const float* __restrict__ scale, const __nv_bfloat16* __restrict__ x,
                      __nv_bfloat16* __restrict__ y, int n, int k) {
  const int lane = threadIdx.x % 32;
  const int row0 = (blockIdx.x * kWarps + threadIdx.x / 32) * kRows;
  if (row0 >= n) return;  // n % kRows == 0 (checked in setup)
  float acc[kRows][kTokens] = {};
  for (int k0 = lane * kChunk; k0 < k; k0 += 32 * kChunk) {
    uint4 wq[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r)
      wq[r] = __ldcs(reinterpret_cast<const uint4*>(q + static_cast<int64_t>(row0 + r) * k + k0));  // streamed once
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      const uint4* xp = reinterpret_cast<const uint4*>(x + static_cast<int64_t>(t) * k + k0);
      const uint4 xa = __ldg(xp), xb = __ldg(xp + 1);
      const uint32_t xw[8] = {xa.x, xa.y, xa.z, xa.w, xb.x, xb.y, xb.z, xb.w};
      float xf[kChunk];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const float2 p = bf16x2_to_float2(xw[j]);
        xf[2 * j] = p.x, xf[2 * j + 1] = p.y;
      }
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const uint32_t ww[4] = {wq[r].x, wq[r].y, wq[r].z, wq[r].w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          float wf[4];
          int8x4_to_float(ww[j], wf);
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[r][t] = __fmaf_rn(wf[e], xf[4 * j + e], acc[r][t]);
        }
      }
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const float s = scale[row0 + r];
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      float v = acc[r][t];
      for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
      if (lane == 0) y[static_cast<int64_t>(t) * n + row0 + r] = __float2bfloat16_rn(v * s);
    }
  }
}

class OptimizedInt8WeightOnly : public Int8QuantizedBase {
 public:
  void run(aisp::Context& ctx) override {
    const int n = static_cast<int>(ctx.param("n")), k = static_cast<int>(ctx.param("k"));
    const unsigned blocks = static_cast<unsigned>((n / kRows + kWarps - 1) / kWarps);
    gemv_int8_weights<<<blocks, kWarps * 32, 0, ctx.stream()>>>(q_, scale_, ctx.buffer("x").as<const __nv_bfloat16>(),
                                                                ctx.buffer("y").as<__nv_bfloat16>(), n, k);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override {
    return "int8 weights + per-row FP32 scales (quantized in setup), dequantized in registers, FP32 accumulate";
  }

 protected:
  void check_shape(int64_t m, int64_t n, int64_t k) const override {
    if (m != kTokens || n % kRows || k % (32 * kChunk))
      throw std::runtime_error("int8_weight_only: the kernel is written for m = 4, n % 4 == 0, k % 512 == 0");
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedInt8WeightOnly)
