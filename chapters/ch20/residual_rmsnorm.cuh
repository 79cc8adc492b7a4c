// residual_rmsnorm: the residual add and RMSNorm between a block's sublayers, as every pre-norm
// transformer runs it twice per layer: h = x + r (the new residual stream), y = RMSNorm(h) * g,
// 16384 tokens x 4096 features, bf16 in and out (both h and y are outputs), fp32 math.
//   baseline_residual_rmsnorm.cu   an add kernel writes h; an RMSNorm kernel reads h back and writes y
//   optimized_residual_rmsnorm.cu  one kernel per row: reads x and r once, keeps the bf16 row of h in
//                                  registers, writes h and y (FlashInfer's fused_add_rmsnorm idea)
// Both normalize the bf16-rounded h with the same per-lane summation order (norm_row_sum below), so the
// outputs agree bit for bit and the bf16 default tolerance holds.
#pragma once
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "block_kernels.cuh"

namespace residual_norm {

constexpr int kDim = 4096;
constexpr int kChunks = kDim / 8 / 32;  // 16-byte chunks of a row per lane (chunk lane + 32 i)

inline int64_t tokens() { return aisp::axis("tokens", 16384); }

// The shared math: sum of squares of a lane's chunks (in order i = 0..kChunks-1) -> 1/rms of the row.
__device__ __forceinline__ float lane_sum_squares(const uint4 (&h)[kChunks]) {
  float ss = 0.0f;
#pragma unroll
  for (int i = 0; i < kChunks; ++i) {
    float f[8];
    block::unpack8(h[i], f);
#pragma unroll
    for (int j = 0; j < 8; ++j) ss = fmaf(f[j], f[j], ss);
  }
  return ss;
}
__device__ __forceinline__ float row_rstd(float lane_ss) {
  return rsqrtf(block::warp_sum(lane_ss) / kDim + block::kRmsEps);
}
__device__ __forceinline__ uint4 normalize8(uint4 h, uint4 g, float rstd) {
  float fh[8], fg[8];
  block::unpack8(h, fh);
  block::unpack8(g, fg);
#pragma unroll
  for (int j = 0; j < 8; ++j) fh[j] = fh[j] * rstd * fg[j];
  return block::pack8(fh);
}

class ResidualRmsnormBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t t = tokens();
    aisp::Workload w;
    w.params = {{"tokens", t}, {"dim", kDim}};
    w.precision = aisp::DType::bf16;
    w.bytes = 4.0 * t * kDim * 2 + kDim * 2;  // x, r read; h, y written; g
    w.flops = 5.0 * t * kDim;
    w.items = double(t);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens");
    ctx.input("x", aisp::DType::bf16, {t, kDim}, aisp::Fill::normal(0, 1));
    ctx.input("r", aisp::DType::bf16, {t, kDim}, aisp::Fill::normal(0, 1));
    ctx.input("g", aisp::DType::bf16, {kDim}, aisp::Fill::uniform(0.8, 1.2), aisp::Role::static_);
    ctx.output("h", aisp::DType::bf16, {t, kDim});
    ctx.output("y", aisp::DType::bf16, {t, kDim});
  }

 protected:
  static unsigned warp_blocks(int64_t rows) { return static_cast<unsigned>((rows * 32 + 255) / 256); }
};

}  // namespace residual_norm
