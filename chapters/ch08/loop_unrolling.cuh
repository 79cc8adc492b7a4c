// loop_unrolling: column sums of a tall rows x cols float matrix, out[c] = sum over r of in[r][c] - the
// reduction over the batch dimension behind a bias gradient or a batch-norm mean. One thread per
// column (lanes on adjacent columns, so every load of a warp is one 128 B line) walks down the rows.
// Shared by baseline_loop_unrolling.cu (the row loop kept rolled) and optimized_loop_unrolling.cu
// (unrolled by 8). Both add the rows in the same order into one accumulator, so their outputs are
// identical bit for bit: unrolling changes when loads are issued, not the arithmetic.
#pragma once
#include "aisp/aisp.hpp"

// 2048 x 16384 floats = 128 MiB read per run. Only 16384 threads (64 blocks of 256, ~half the SMs
// with one block each) exist: the shape of a reduction with a long reduced axis and a narrow output,
// where per-thread memory-level parallelism is all there is.
inline constexpr int64_t kUnrollRows = 2048;
inline constexpr int64_t kUnrollCols = 16384;

inline aisp::Workload loop_unrolling_workload() {
  const double n = static_cast<double>(kUnrollRows) * kUnrollCols;
  aisp::Workload w;
  w.params = {{"rows", kUnrollRows}, {"cols", kUnrollCols}};
  w.precision = aisp::DType::f32;
  w.bytes = n * sizeof(float) + static_cast<double>(kUnrollCols) * sizeof(float);
  w.flops = n;
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// Both variants' kernels have this signature and differ in one line, the unroll pragma of the row loop; each
// stays written out in its variant file because that line is the lesson.
using ColumnSumKernel = void (*)(const float* __restrict__, float* __restrict__, int64_t, int64_t);

// One thread per column, 256 per block.
inline void launch_column_sum(aisp::Context& ctx, ColumnSumKernel kernel) {
  const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
  constexpr int kThreads = 256;
  kernel<<<static_cast<unsigned>((cols + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
      ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), rows, cols);
  AISP_LAUNCH_CHECK();
}

// The pair's base: its workload and buffers; each variant adds only its kernel and run().
class LoopUnrollingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return loop_unrolling_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("in", aisp::DType::f32, {rows, cols});
    ctx.output("out", aisp::DType::f32, {cols});
  }
};
