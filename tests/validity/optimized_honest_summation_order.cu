// Honest control: the row sum with another summation order - one warp per row, each lane summing a
// strided slice, then a shuffle tree - instead of the baseline's left-to-right loop. The results differ in
// the last bits (floating-point addition is not associative) but stay far inside the default fp32
// tolerance (inputs in [0, 1), 256 per row: max relative difference ~1e-6 against rtol 1e-5).
// Must pass every check (reordering a reduction is a legitimate optimization).
#include "validity_common.cuh"

namespace {

__global__ void rowsum_warp(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t cols) {
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together: rows are warp-uniform
  float s = 0.f;
  for (int64_t c = lane; c < cols; c += 32) s += x[row * cols + c];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (lane == 0) y[row] = s;
}

}  // namespace

struct HonestSummationOrder : validity::SequentialRowSum {
  void run(aisp::Context& ctx) override {
    rowsum_warp<<<validity::blocks_for(validity::kRows * 32), 256, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(), validity::kRows, validity::kCols);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity control: row sum, warp-shuffle tree order"; }
};

AISP_BENCHMARK(HonestSummationOrder)
