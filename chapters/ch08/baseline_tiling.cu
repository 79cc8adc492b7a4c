// ch08 tiling, baseline: every one of the 49 taps of every output read straight from global memory.
//
// Technique: out(y, x) = sum over dy, dx of w(dy, dx) * in(clamp(y + dy), clamp(x + dx)), each input read
// with a read-only global load; neighbouring outputs re-read the same pixels and rely on the L1 cache.
// Why it is slow: each input pixel is loaded 49 times. Most of those loads hit L1, but an L1 hit is
// still a full global-load instruction: 64-bit address arithmetic plus the clamps, a tag lookup, and -
// for 6 of every 7 column offsets - a warp request that straddles two 128 B lines (two wavefronts).
// 196 such loads per thread make the kernel bound by the L1/load pipeline (~1.5-2 L1 cycles per warp
// tap), and the halo rows that fall out of L1 come back from L2.
// Expected on Hopper: at least ~16.7 M outputs x 49 taps / 32 lanes x ~2 cycles over 132 SMs at
// 1.98 GHz ~ 0.2 ms (measured on an H100 SXM: 0.34 ms - the straddling loads cost more than two cycles).
#include "tiling.cuh"

namespace {

__global__ void __launch_bounds__(kTile * kTileRows)
conv7x7_global_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t h, int64_t w) {
  const int64_t x = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
#pragma unroll
  for (int j = 0; j < kTile / kTileRows; ++j) {
    const int64_t y = static_cast<int64_t>(blockIdx.y) * kTile + threadIdx.y + j * kTileRows;
    if (x >= w || y >= h) continue;
    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy < kConvTaps; ++dy) {
      const int64_t row = clamp_index(y + dy - kConvRadius, h - 1) * w;
#pragma unroll
      for (int dx = 0; dx < kConvTaps; ++dx)
        acc = fmaf(kConvWeights.w[dy * kConvTaps + dx], __ldg(in + row + clamp_index(x + dx - kConvRadius, w - 1)),
                   acc);
    }
    out[y * w + x] = acc;
  }
}

class BaselineTiling : public TilingBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t h = ctx.param("height"), w = ctx.param("width");
    conv7x7_global_kernel<<<tiling_grid(h, w), dim3(kTile, kTileRows), 0, ctx.stream()>>>(
        ctx.buffer("image").as<const float>(), ctx.buffer("filtered").as<float>(), h, w);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "untiled: 49 global (L1-cached) loads per output"; }
};

}  // namespace

AISP_BENCHMARK(BaselineTiling)
