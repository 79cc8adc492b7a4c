// tiling: a 7 x 7 convolution (a blur / feature filter) over a 4096 x 4096 float image, clamp-to-edge
// borders, weights in constant memory. Each 32 x 8 thread block produces a 32 x 32 output tile, each thread
// 4 outputs (rows ty, ty + 8, ty + 16, ty + 24). Shared by baseline_tiling.cu (every tap read from global
// memory) and optimized_tiling.cu (the tile plus its 3-pixel halo staged once in shared memory). Both sum
// the 49 taps in the same order, so their outputs are identical bit for bit.
#pragma once
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

inline constexpr int64_t kTilingHeight = 4096;
inline constexpr int64_t kTilingWidth = 4096;  // 64 MiB per image
inline constexpr int kConvRadius = 3;
inline constexpr int kConvTaps = 2 * kConvRadius + 1;  // 7 x 7 = 49 taps
inline constexpr int kTile = 32;                       // output tile edge
inline constexpr int kTileRows = 8;                    // thread rows per block: 4 outputs per thread

inline aisp::Workload tiling_workload() {
  const double pixels = static_cast<double>(kTilingHeight) * kTilingWidth;
  aisp::Workload w;
  w.params = {{"height", kTilingHeight}, {"width", kTilingWidth}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * pixels * sizeof(float);  // each pixel read once, each output written once (the minimum)
  w.flops = 2.0 * pixels * kConvTaps * kConvTaps;
  w.items = pixels;
  w.item_unit = "pixels";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class TilingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return tiling_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t h = ctx.param("height"), w = ctx.param("width");
    ctx.input("image", aisp::DType::f32, {h, w});
    ctx.output("filtered", aisp::DType::f32, {h, w});
  }
};

// Fixed 7 x 7 weights (a separable binomial 1-6-15-20-15-6-1 / 64 kernel, written out as 49 products),
// in constant memory: every lane reads the same weight at the same time, the broadcast case the
// constant cache is built for.
struct ConvWeights {
  float w[kConvTaps * kConvTaps];
};
constexpr ConvWeights make_conv_weights() {
  constexpr float b[kConvTaps] = {1, 6, 15, 20, 15, 6, 1};
  ConvWeights cw{};
  for (int i = 0; i < kConvTaps; ++i)
    for (int j = 0; j < kConvTaps; ++j) cw.w[i * kConvTaps + j] = b[i] * b[j] / 4096.0f;
  return cw;
}
__constant__ ConvWeights kConvWeights = make_conv_weights();

__device__ __forceinline__ int64_t clamp_index(int64_t v, int64_t hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

inline dim3 tiling_grid(int64_t h, int64_t w) {
  return dim3(static_cast<unsigned>((w + kTile - 1) / kTile), static_cast<unsigned>((h + kTile - 1) / kTile));
}
