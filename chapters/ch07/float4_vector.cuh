// float4_vector: out = a * x + y (SAXPY into a separate output) over n floats: two streams in, one out.
// Shared by baseline_float4_vector.cu (one element per thread, 4 B accesses) and
// optimized_float4_vector.cu (16 B float4 accesses); both compute fmaf(a, x[i], y[i]), so their outputs
// are identical bit for bit.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 2^24 + 1 floats = 64 MiB per buffer, 192 MiB moved per run (3.8x H100's 50 MB L2): ~66 us at 2.9 TB/s.
// The +1 keeps n off a multiple of 4, so the vector kernel's scalar tail runs (and is verified) every time.
inline constexpr int64_t kFloat4VectorN = (int64_t{1} << 24) + 1;
inline constexpr float kFloat4VectorA = 1.5f;  // the "a" of a * x + y; a constant, not an input

inline aisp::Workload float4_vector_workload() {
  aisp::Workload w;
  w.params = {{"n", kFloat4VectorN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * static_cast<double>(kFloat4VectorN) * sizeof(float);  // x, y read once; out written once
  w.flops = 2.0 * static_cast<double>(kFloat4VectorN);
  w.items = static_cast<double>(kFloat4VectorN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class Float4VectorBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return float4_vector_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("y", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};
