// ai_optimization: raising arithmetic intensity by reuse. A linear layer applied to a batch of 8 vectors,
// y[b] = W x[b], with W 16384 x 2048 floats (128 MiB: a decode step of 8 requests through one weight
// matrix). Shared by baseline_ai_optimization.cu (8 matrix-vector products, one per request: W streams
// from HBM 8 times) and optimized_ai_optimization.cu (one pass over W; each weight loaded once feeds all 8
// dot products).
//
// Arithmetic intensity (FLOP per DRAM byte): a matrix-vector product does 2 FLOP per 4-byte weight,
// 0.5 FLOP/B, far left of the H100 FP32 ridge (~67 TFLOP/s / 3.35 TB/s = 20 FLOP/B), so its time is the
// time to stream W. Batching 8 vectors keeps the FLOPs and divides the bytes by 8: 4 FLOP/B, still
// memory-bound, so the time drops ~8x. (It would take ~40 vectors per pass over W to reach the FP32
// ridge, which is why serving systems batch decode requests.)
//
// Both variants reduce every (row, vector) dot product in exactly the same order - lane l of a warp sums
// float4 chunks l, l + 32, ... with the same fmaf chain (dot4_accumulate), then the same xor-butterfly
// over the warp (warp_sum) - so y is identical bit for bit.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kAiRows = 16384;  // output features (rows of W)
inline constexpr int64_t kAiCols = 2048;   // input features
inline constexpr int64_t kAiBatch = 8;     // vectors (requests) per call
inline constexpr int kAiChunksPerLane = static_cast<int>(kAiCols / 4 / 32);  // 16 float4 per lane per row
static_assert(kAiCols % 128 == 0, "a warp covers a row in whole float4 chunks");

inline aisp::Workload ai_optimization_workload() {
  const double weights = static_cast<double>(kAiRows) * kAiCols;
  aisp::Workload w;
  w.params = {{"rows", kAiRows}, {"cols", kAiCols}, {"batch", kAiBatch}};
  w.precision = aisp::DType::f32;
  // Minimum DRAM traffic: W once (128 MiB), x once (64 KiB), y once (512 KiB).
  w.bytes = (weights + static_cast<double>(kAiBatch) * (kAiCols + kAiRows)) * sizeof(float);
  w.flops = 2.0 * weights * kAiBatch;  // one multiply-add per weight per vector
  w.items = static_cast<double>(kAiBatch);
  w.item_unit = "vectors";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class AiOptimizationBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return ai_optimization_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols"), batch = ctx.param("batch");
    // W is a weight: static (filled once, never refilled between samples); the vectors are activations.
    ctx.input("w", aisp::DType::f32, {rows, cols}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("x", aisp::DType::f32, {batch, cols});
    ctx.output("y", aisp::DType::f32, {batch, rows});
  }
};

// Weights are read once per pass: ld.global.cs (evict-first) keeps the 128 MiB stream from displacing the
// small, hot x vectors (which the baseline reads through L1) in L1 and L2.
__device__ __forceinline__ float4 load_weights4(const float4* p) { return __ldcs(p); }

// acc += w . x over one float4, as an explicit fmaf chain (x, y, z, w order) so no compiler contraction
// choice can differ between the two variants.
__device__ __forceinline__ float dot4_accumulate(float acc, float4 w, float4 x) {
  acc = fmaf(w.x, x.x, acc);
  acc = fmaf(w.y, x.y, acc);
  acc = fmaf(w.z, x.z, acc);
  return fmaf(w.w, x.w, acc);
}

// Butterfly sum over the 32 lanes; every lane ends with the same total.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
