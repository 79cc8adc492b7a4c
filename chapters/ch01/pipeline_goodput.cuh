// pipeline_goodput: a training-style input pipeline. A dataset of `batches` batches, each [rows,
// features] fp32, sits in host memory (filled in setup() from a fixed pattern, like samples a loader has
// decoded); every step moves one batch to the GPU and runs the model's layer on it,
//   y[b] = x[b] * W          (x[b]: rows x features, W: features x out_features, row-major)
// Shared by baseline_pipeline_goodput.cu (per-batch cudaMalloc, pageable host data, blocking copy,
// synchronize every step, cudaFree) and optimized_pipeline_goodput.cu (pinned host data, two
// preallocated device batch buffers, copies on a second stream overlapping the GEMMs).
// Goodput here = the share of the step time the GPU spends on the model's math; the naive loop spends
// most of it allocating, staging and waiting.
//
// W is a dynamic input (in training it changes every step), so the output follows the harness's fresh
// inputs; the host data is fixed. Both host data and W are small integers (-4..4) stored as fp32, so the
// GEMM's sums are exact (16 * features < 2^24) and the outputs are bit-identical whatever cuBLAS's
// summation order (same argument as ch02/cublas.cuh).
#pragma once
#include <cstdint>
#include <vector>

#include "../common/host_pipeline.hpp"
#include "aisp/aisp.hpp"

// 8 batches of 512 x 1024 floats (2 MiB each, 16 MiB in all) through a 1024 x 1024 layer: per batch a
// ~40 us copy at ~50 GB/s and a 1.07 GFLOP GEMM (~25 us at ~45 TFLOP/s fp32), so the optimized
// pipeline is copy-bound and the GEMMs hide under the copies.
inline constexpr int64_t kGoodputBatches = 8, kGoodputRows = 512, kGoodputFeatures = 1024, kGoodputOut = 1024;

inline aisp::Workload pipeline_goodput_workload() {
  const double b = kGoodputBatches, r = kGoodputRows, f = kGoodputFeatures, o = kGoodputOut;
  aisp::Workload w;
  w.params = {{"batches", kGoodputBatches}, {"rows", kGoodputRows}, {"features", kGoodputFeatures},
              {"out_features", kGoodputOut}};
  w.precision = aisp::DType::f32;
  // Device memory, minimum: each batch lands in HBM once (H2D write), W is read once, y written once.
  // (The GEMM's re-read of a 2 MiB batch can be served by L2, so it is not counted.)
  w.bytes = (b * r * f + f * o + b * r * o) * sizeof(float);
  w.flops = 2.0 * b * r * f * o;
  w.items = b * r;
  w.item_unit = "samples";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class PipelineGoodputBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return pipeline_goodput_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("batches"), r = ctx.param("rows"), o = ctx.param("out_features");
    static_assert(16 * kGoodputFeatures < (int64_t{1} << 24), "GEMM partial sums must stay exact in fp32");
    ctx.input("w", aisp::DType::f32, {ctx.param("features"), o}, aisp::Fill::int_range(-4, 4));
    ctx.output("y", aisp::DType::f32, {b, r, o});
  }
};

// The dataset's fixed contents, written into whichever host memory the variant chose.
inline void fill_goodput_dataset(float* host, int64_t count) {
  for (int64_t i = 0; i < count; ++i) host[i] = host_pipeline::pattern_small_int(i);
}

// One step's math on the harness stream: y[b] = x[b] * W via the harness's cuBLAS handle (TF32 off).
// Column-major cuBLAS sees row-major matrices transposed, so y^T = W^T * x^T: pass W first.
inline void goodput_layer(aisp::Context& ctx, const float* x_batch, int64_t batch) {
  const int r = static_cast<int>(ctx.param("rows")), f = static_cast<int>(ctx.param("features"));
  const int o = static_cast<int>(ctx.param("out_features"));
  const float alpha = 1.0f, beta = 0.0f;
  float* y = ctx.buffer("y").as<float>() + batch * r * o;
  AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, o, r, f, &alpha, ctx.buffer("w").as<const float>(),
                                o, x_batch, f, &beta, y, o));
}
