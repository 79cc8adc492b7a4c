// transpose: out[c][r] = in[r][c] for a row-major rows x cols float matrix (out is cols x rows). Shared by
// baseline_transpose.cu and optimized_transpose.cu.
#pragma once
#include "aisp/aisp.hpp"

// 8192 x 8192 floats = 256 MiB per buffer (512 MiB per run, 10x H100's 50 MB L2). A power-of-two leading
// dimension is the realistic (and the worst) case for the strided side of a naive transpose.
inline constexpr int64_t kTransposeRows = 8192;
inline constexpr int64_t kTransposeCols = 8192;

// Both kernels use 32-wide tiles with blocks of 32 x 8 threads: 32 lanes span one 128 B line of floats,
// and 8 rows of threads (256 per block) keep enough warps per SM to cover latency.
inline constexpr int kTransposeTile = 32;
inline constexpr int kTransposeBlockRows = 8;

inline aisp::Workload transpose_workload() {
  const double n = static_cast<double>(kTransposeRows) * kTransposeCols;
  aisp::Workload w;
  w.params = {{"rows", kTransposeRows}, {"cols", kTransposeCols}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * n * sizeof(float);  // each element read once and written once
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class TransposeBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return transpose_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("in", aisp::DType::f32, {rows, cols});
    ctx.output("out", aisp::DType::f32, {cols, rows});
  }
};
