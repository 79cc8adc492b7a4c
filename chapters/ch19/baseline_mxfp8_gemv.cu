// ch19 mxfp8_gemv, baseline: the decode GEMV over bf16 weights.
//
// Technique: one warp per output row; each lane reads 16 bytes (8 bf16 weights) per step with 4 loads in
// flight, the matching 8 values of x (L1-resident: 16 KiB for the whole vector), fp32 FMAs, a warp sum.
// A bandwidth-efficient kernel: the weights stream at close to HBM speed.
// Why it is slow(er): 2 bytes per weight is the whole cost: 256 MiB at ~3 TB/s ~ 90 us.
// Expected on Hopper: ~90 us (~85-90% of 3.35 TB/s on its own bytes).
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 91.7 us
// (2.93 TB/s on its 268 MB of bf16 weights).
#include "mxfp8_gemv.cuh"

namespace {

using namespace mxfp8;

__global__ void __launch_bounds__(32 * kRowsPerCta)
    gemv_bf16(const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y,
              int k) {
  const int64_t row = blockIdx.x * int64_t(kRowsPerCta) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const uint4* wr = reinterpret_cast<const uint4*>(w + row * k);
  const int chunks = k / 8;  // 16-byte chunks of the row
  float acc = 0.0f;
  for (int c0 = lane; c0 < chunks; c0 += 32 * kUnroll) {
    uint4 wv[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) wv[u] = __ldcs(wr + c0 + 32 * u);  // streamed once: evict first
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      float xf[8];
      load_x8(x + 8 * (c0 + 32 * u), xf);
      const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&wv[u]);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const float2 t = __bfloat1622float2(h[i]);
        acc = fmaf(t.x, xf[2 * i], acc);
        acc = fmaf(t.y, xf[2 * i + 1], acc);
      }
    }
  }
  acc = warp_sum(acc);
  if (lane == 0) y[row] = __float2bfloat16_rn(acc);
}

class BaselineMxfp8Gemv : public Mxfp8GemvBase {
 public:
  void run(aisp::Context& ctx) override {
    gemv_bf16<<<blocks(ctx), 32 * kRowsPerCta, 0, ctx.stream()>>>(ctx.buffer("w").as<const __nv_bfloat16>(),
                                                                  ctx.buffer("x").as<const __nv_bfloat16>(),
                                                                  ctx.buffer("y").as<__nv_bfloat16>(),
                                                                  static_cast<int>(ctx.param("k")));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "bf16 weights, warp per row, 16-byte streaming loads"; }
};

}  // namespace

AISP_BENCHMARK(BaselineMxfp8Gemv)
