// pipeline_parallelism: 8 micro-batches (32 tokens each) through an 8-layer MLP, y = tanh(... tanh(x W1)
// ... W8), hidden 1024, fp32. The layers are split into 4 pipeline stages of 2 layers, as pipeline
// parallelism places them on 4 GPUs; here the stages share one GPU. A layer on one micro-batch is one
// kernel of 32 CTAs (32 x 32 output tiles, shared-memory tiled, 4 outputs per thread): a quarter of an
// H100's SMs, the shape of a small per-stage micro-batch.
//   baseline_pipeline_parallelism.cu   sequential: micro-batch after micro-batch, layer after layer, on
//                                      one stream (the schedule with no overlap between stages)
//   optimized_pipeline_parallelism.cu  pipelined (GPipe forward): stage s on its own stream handles
//                                      micro-batch m once stage s-1 has finished m (one event per stage
//                                      and micro-batch), so up to 4 stages work on different micro-batches
//                                      at once, filling the SMs a single layer leaves idle
// Both run the same kernels on the same data: outputs are bit-identical. Why not one launch over all 8
// micro-batches per layer? Under pipeline parallelism a stage receives micro-batches one at a time from
// the previous stage; overlapping stages is what the schedule can do about it.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

#include "aisp/aisp.hpp"

namespace pipeline {

constexpr int kMicro = 8, kRows = 32, kHidden = 1024, kLayers = 8, kStages = 4;
constexpr int kTile = 32;

// out[32][N] = tanh(in[32][K] W[K][N]); grid N/32 CTAs of 256 threads, thread (ty, tx) computes rows
// ty, ty+8, ty+16, ty+24 of column tx of its tile.
__global__ void __launch_bounds__(256)
    mlp_layer(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int k_dim, int n_dim) {
  __shared__ float a[kTile][kTile + 1], b[kTile][kTile + 1];
  const int ty = threadIdx.x / 32, tx = threadIdx.x % 32, col = blockIdx.x * kTile + tx;
  float acc[4] = {0, 0, 0, 0};
  for (int k0 = 0; k0 < k_dim; k0 += kTile) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      a[ty + 8 * i][tx] = in[(ty + 8 * i) * k_dim + k0 + tx];
      b[ty + 8 * i][tx] = w[int64_t(k0 + ty + 8 * i) * n_dim + col];
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kTile; ++kk) {
      const float bv = b[kk][tx];
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[i] = fmaf(a[ty + 8 * i][kk], bv, acc[i]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) out[(ty + 8 * i) * n_dim + col] = tanhf(acc[i]);
}

class PipelineParallelismBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"micro_batches", kMicro}, {"rows", kRows}, {"hidden", kHidden}, {"layers", kLayers}, {"stages", kStages}};
    w.precision = aisp::DType::f32;
    w.bytes = 4.0 * (2.0 * kMicro * kRows * kHidden + double(kLayers) * kHidden * kHidden);
    w.flops = 2.0 * kMicro * kRows * double(kHidden) * kHidden * kLayers;
    w.items = kMicro * kRows;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const double a = 0.05412658773652741;  // sqrt(3 / 1024): var(w) = 1/1024, activations keep their scale
    ctx.input("x", aisp::DType::f32, {kMicro, kRows, kHidden});
    ctx.input("w", aisp::DType::f32, {kLayers, kHidden, kHidden}, aisp::Fill::uniform(-a, a), aisp::Role::static_);
    ctx.output("y", aisp::DType::f32, {kMicro, kRows, kHidden});
    act_ = static_cast<float*>(ctx.scratch("activations", size_t(kMicro) * 2 * kRows * kHidden * sizeof(float)));
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  // Layer l (0-based) of micro-batch m on `stream`: x -> ping -> pong -> ... -> y.
  void layer(aisp::Context& ctx, int m, int l, cudaStream_t stream) {
    const size_t mb = size_t(kRows) * kHidden;
    const float* in = l == 0 ? ctx.buffer("x").as<const float>() + m * mb : act_ + (size_t(m) * 2 + (l - 1) % 2) * mb;
    float* out = l == kLayers - 1 ? ctx.buffer("y").as<float>() + m * mb : act_ + (size_t(m) * 2 + l % 2) * mb;
    mlp_layer<<<kHidden / kTile, 256, 0, stream>>>(in, ctx.buffer("w").as<const float>() + size_t(l) * kHidden * kHidden, out,
                                                   kHidden, kHidden);
    AISP_LAUNCH_CHECK();
  }
  float* act_ = nullptr;
};

}  // namespace pipeline
