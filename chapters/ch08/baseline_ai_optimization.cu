// ch08 ai_optimization, baseline: one matrix-vector product per vector, W streamed 8 times.
//
// Technique: a good GEMV - one warp per row of W, 16-byte loads, the lane's 16 independent chunks in a
// fully unrolled loop (so its weight loads overlap), 64 warps per SM, a shuffle reduction - launched once
// per vector: 8 launches, each reading all 128 MiB of W and one 8 KiB x vector (an L1/L2 hit).
// Why it is slow: the kernel itself runs near the HBM ceiling; the problem is the algorithm's arithmetic
// intensity. Each launch does 2 FLOP per 4-byte weight (0.5 FLOP/B), and W (128 MiB) is 2.5x the 50 MB L2,
// so nothing of it survives from one launch to the next: 8 x 128 MiB = 1 GiB of DRAM reads for 0.54 GFLOP.
// Expected on Hopper: ~8 x 45-50 us = ~360-400 us on H100 SXM (each launch ~2.7-3.0 TB/s). Measured on
// the H100 (harness, cold): 371.2 us, 46 us and 2.9 TB/s per launch.
#include "ai_optimization.cuh"

namespace {

constexpr int kThreads = 256;  // 8 warps = 8 rows per block
constexpr int kRowsPerBlock = kThreads / 32;

__global__ void __launch_bounds__(kThreads)
gemv_kernel(const float4* __restrict__ w, const float4* __restrict__ x, float* __restrict__ y) {
  constexpr int kRowChunks = static_cast<int>(kAiCols / 4);
  const int lane = threadIdx.x % 32;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  const float4* w_row = w + row * kRowChunks;

  float acc = 0.0f;
#pragma unroll
  for (int j = 0; j < kAiChunksPerLane; ++j) {
    const int k4 = lane + 32 * j;  // a warp reads 512 contiguous bytes of the row per step
    acc = dot4_accumulate(acc, load_weights4(w_row + k4), x[k4]);
  }
  acc = warp_sum(acc);
  if (lane == 0) y[row] = acc;
}

class BaselineAiOptimization : public AiOptimizationBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols"), batch = ctx.param("batch");
    const float4* w = ctx.buffer("w").as<const float4>();
    const float4* x = ctx.buffer("x").as<const float4>();
    float* y = ctx.buffer("y").as<float>();
    for (int64_t b = 0; b < batch; ++b) {  // one GEMV per request, as an unbatched server would run them
      gemv_kernel<<<static_cast<unsigned>(rows / kRowsPerBlock), kThreads, 0, ctx.stream()>>>(w, x + b * cols / 4,
                                                                                             y + b * rows);
      AISP_LAUNCH_CHECK();
    }
  }

  std::string technique() const override { return "8 separate GEMVs: W read from HBM once per vector (0.5 FLOP/B)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAiOptimization)
