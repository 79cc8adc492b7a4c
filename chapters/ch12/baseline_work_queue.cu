// ch12 work_queue, baseline: static partition: block b of the persistent grid processes rows
// [b R / G, (b + 1) R / G) in order.
//
// Technique: the default way to split work over a fixed grid: equal numbers of items per block.
// Why it is slow: equal counts are not equal work. Block 0 owns the heaviest 124 rows (~2000 rounds each,
// ~250k row-rounds against an average share of ~52k), so most of the GPU finishes early and waits for a
// few stragglers: time = the heaviest block's share, ~4.8x the average.
// Expected on Hopper: ~1 ms on an H100 SXM (250k row-rounds x 8 cycles at 1.98 GHz), set by block 0.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 2.056 ms (median).
#include "work_queue.cuh"

namespace {

__global__ void __launch_bounds__(kQueueThreads) static_rows(const float* __restrict__ x, float* __restrict__ y,
                                                             const float* __restrict__ coef, int64_t rows, int cols) {
  const int64_t begin = rows * blockIdx.x / gridDim.x, end = rows * (blockIdx.x + 1) / gridDim.x;
  for (int64_t r = begin; r < end; ++r) process_row(x, y, coef, r, rows, cols);
}

class BaselineWorkQueue : public WorkQueueBase {
 public:
  void run(aisp::Context& ctx) override {
    static_rows<<<grid(ctx), kQueueThreads, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                                              ctx.buffer("coef").as<const float>(), ctx.param("rows"),
                                                              static_cast<int>(ctx.param("cols")));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "static partition: a contiguous, equal share of rows per block"; }
};

}  // namespace

AISP_BENCHMARK(BaselineWorkQueue)
