// performance: a small elementwise epilogue as a transformer block applies it after a projection,
//   t1  = x * gamma[c] + beta[c]        (per-channel scale and shift)
//   t2  = gelu(t1)                      (tanh approximation)
//   t3  = t2 + residual                 (skip connection)
//   out = t3 * layer_scale[c]           (per-channel layer scale)
// over a [rows, cols] fp32 activation. Shared by baseline_performance.cu (one kernel per line, the
// intermediates in global memory) and optimized_performance.cu (one fused kernel). Both call the same
// four stage functions below, in the same order, with explicitly rounded operations at the stage
// boundaries, so the outputs are bit-identical: fusion changes where t1..t3 live, not the arithmetic.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 4096 x 4096 floats = 64 MiB per tensor: every tensor is larger than H100's 50 MB L2, so an
// intermediate written by one kernel is mostly evicted before the next kernel reads it back.
inline constexpr int64_t kPerfRows = 4096, kPerfCols = 4096;

inline aisp::Workload performance_workload() {
  const double n = static_cast<double>(kPerfRows * kPerfCols);
  aisp::Workload w;
  w.params = {{"rows", kPerfRows}, {"cols", kPerfCols}};
  w.precision = aisp::DType::f32;
  // Minimum traffic: read x and residual once, write out once (the three per-channel vectors are 48 KiB).
  w.bytes = 3.0 * n * sizeof(float) + 3.0 * kPerfCols * sizeof(float);
  // Per element: fma (2) + gelu (~8 arithmetic ops plus one tanh) + add (1) + mul (1), counted as 12.
  w.flops = 12.0 * n;
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class PerformanceBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return performance_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("x", aisp::DType::f32, {rows, cols});
    ctx.input("residual", aisp::DType::f32, {rows, cols});
    // Per-channel parameters are weights: static, filled once before setup().
    ctx.input("gamma", aisp::DType::f32, {cols}, aisp::Fill::uniform(0.5, 1.5), aisp::Role::static_);
    ctx.input("beta", aisp::DType::f32, {cols}, aisp::Fill::uniform(-0.1, 0.1), aisp::Role::static_);
    ctx.input("layer_scale", aisp::DType::f32, {cols}, aisp::Fill::uniform(0.1, 1.0), aisp::Role::static_);
    ctx.output("out", aisp::DType::f32, {rows, cols});
  }
};

// The four stages. Each result is a float rounded exactly once per written operation; the _rn
// intrinsics are never contracted with a neighbouring stage's multiply into an FMA, so the fused kernel
// computes the same bits as the unfused chain that stores every intermediate.
__device__ __forceinline__ float stage_affine(float x, float g, float b) { return __fmaf_rn(x, g, b); }
__device__ __forceinline__ float stage_gelu(float t) {
  const float k0 = 0.7978845608f, k1 = 0.044715f;  // sqrt(2/pi), GELU tanh-approximation constant
  const float inner = __fmul_rn(k0, __fmaf_rn(__fmul_rn(k1, t), __fmul_rn(t, t), t));
  return __fmul_rn(__fmul_rn(0.5f, t), __fadd_rn(1.0f, tanhf(inner)));
}
__device__ __forceinline__ float stage_residual(float t, float r) { return __fadd_rn(t, r); }
__device__ __forceinline__ float stage_scale(float t, float s) { return __fmul_rn(t, s); }

// Both variants move float4 vectors (cols is a multiple of 4, so a vector never straddles two rows):
// the contrast is fusion alone, not vector width.
inline void require_performance_shape(int64_t cols, const void* a, const void* b) {
  if (cols % 4 != 0 || reinterpret_cast<uintptr_t>(a) % 16 != 0 || reinterpret_cast<uintptr_t>(b) % 16 != 0)
    throw std::runtime_error("performance: float4 path needs cols % 4 == 0 and 16-byte aligned buffers");
}

// One full-occupancy wave of 256-thread blocks for the grid-stride loops.
inline unsigned performance_grid(const aisp::DeviceInfo& dev) {
  const int per_sm = dev.max_threads_per_sm > 0 ? dev.max_threads_per_sm / 256 : 8;
  return static_cast<unsigned>((dev.sm_count > 0 ? dev.sm_count : 132) * per_sm);
}
