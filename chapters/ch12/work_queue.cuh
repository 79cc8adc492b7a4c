// work_queue: rows of very different cost on a persistent grid (one 1024-thread block per SM). Row i of
// a 16384 x 1024 fp32 matrix needs cost(i) = 16 x (1 + floor(127 (1 - i/R)^4)) rounds of y = a y + b per
// element: 2032 rounds for the first rows, 16 for the last, 26 x 16 on average. That is a batch sorted by
// length, heaviest first, as length-bucketing loaders and MoE token sorts produce it.
// Shared by baseline_work_queue.cu (static partition: block b owns a contiguous 1/grid of the rows) and
// optimized_work_queue.cu (dynamic: blocks take the next row from an atomic counter). Same per-row code,
// same element order: outputs match bit for bit.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

inline constexpr int64_t kQueueRows = 16384, kQueueCols = 1024;

namespace {

constexpr int kQueueThreads = 1024;

__device__ __forceinline__ int row_cost(int64_t row, int64_t rows) {
  const float t = 1.0f - static_cast<float>(row) / static_cast<float>(rows);
  return 16 * (1 + static_cast<int>(127.0f * t * t * t * t));
}

// One row, one element per thread (cols == blockDim.x).
__device__ __forceinline__ void process_row(const float* __restrict__ x, float* __restrict__ y,
                                            const float* __restrict__ coef, int64_t row, int64_t rows, int cols) {
  const float a = coef[0], b = coef[1] - 0.99f;
  const int64_t i = row * cols + threadIdx.x;
  float v = x[i];
  const int rounds = row_cost(row, rows);
  for (int k = 0; k < rounds; ++k) v = __fmaf_rn(a, v, b);
  y[i] = v;
}

}  // namespace

class WorkQueueBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"rows", kQueueRows}, {"cols", kQueueCols}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kQueueRows * kQueueCols * sizeof(float);
    double rounds = 0;  // the same formula as row_cost(), summed on the host
    for (int64_t r = 0; r < kQueueRows; ++r) {
      const float t = 1.0f - static_cast<float>(r) / static_cast<float>(kQueueRows);
      rounds += 16 * (1 + static_cast<int>(127.0f * t * t * t * t));
    }
    w.flops = 2.0 * rounds * kQueueCols;
    w.items = static_cast<double>(kQueueRows);
    w.item_unit = "rows";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    if (cols != kQueueThreads) throw std::invalid_argument("work_queue: one thread per column");
    ctx.input("x", aisp::DType::f32, {rows, cols});
    // a in [0.99, 1.0), b in [0, 0.01): bounded for any number of rounds.
    ctx.input("coef", aisp::DType::f32, {2}, aisp::Fill::uniform(0.99, 1.0));
    ctx.output("y", aisp::DType::f32, {rows, cols});
  }

 protected:
  // One block per SM: 32 warps, 8 per scheduler, enough to hide the 4-cycle FMA latency of the dependent
  // rounds, so a lone block runs its SM at full FMA throughput.
  static unsigned grid(aisp::Context& ctx) { return static_cast<unsigned>(ctx.device().sm_count); }
};
