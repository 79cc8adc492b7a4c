// autotuning: z = alpha * x + y over n floats (SAXPY into a separate output), a grid-stride kernel with
// 16-byte accesses. Shared by baseline_autotuning.cu (a launch configuration hard-coded for another GPU)
// and optimized_autotuning.cu (the configuration derived in setup() from this GPU's properties and the
// kernel's occupancy). The kernel is the same, so the outputs are identical bit for bit.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

inline constexpr int64_t kAutotuneN = int64_t{1} << 24;  // 64 MiB per buffer, 192 MiB per run
inline constexpr float kAutotuneAlpha = 1.5f;

inline aisp::Workload autotuning_workload() {
  aisp::Workload w;
  w.params = {{"n", kAutotuneN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * static_cast<double>(kAutotuneN) * sizeof(float);
  w.flops = 2.0 * static_cast<double>(kAutotuneN);
  w.items = static_cast<double>(kAutotuneN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class AutotuningBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return autotuning_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("y", aisp::DType::f32, {n});
    ctx.output("z", aisp::DType::f32, {n});
  }
};

// Grid-stride over float4 vectors; the launch configuration decides how many vectors are in flight.
__global__ void saxpy_vec4_kernel(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z,
                                  float alpha, int64_t n) {
  const int64_t n4 = n / 4;
  const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
  const float4* __restrict__ y4 = reinterpret_cast<const float4*>(y);
  float4* __restrict__ z4 = reinterpret_cast<float4*>(z);
  const int64_t tid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  // Kept rolled: one x/y vector pair in flight per thread, so bytes in flight - and bandwidth - are set
  // by the launch configuration alone (nvcc would otherwise unroll by 4 and hide part of the contrast).
#pragma unroll 1
  for (int64_t i = tid; i < n4; i += stride) {
    const float4 a = x4[i], b = y4[i];
    z4[i] = make_float4(fmaf(alpha, a.x, b.x), fmaf(alpha, a.y, b.y), fmaf(alpha, a.z, b.z), fmaf(alpha, a.w, b.w));
  }
  const int64_t tail = n4 * 4 + tid;  // n % 4 leftover elements (none at the default size)
  if (tail < n) z[tail] = fmaf(alpha, x[tail], y[tail]);
}

inline void launch_saxpy(aisp::Context& ctx, unsigned blocks, int threads) {
  const float* x = ctx.buffer("x").as<const float>();
  const float* y = ctx.buffer("y").as<const float>();
  float* z = ctx.buffer("z").as<float>();
  if ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y) | reinterpret_cast<uintptr_t>(z)) % 16)
    throw std::runtime_error("autotuning: buffers must be 16-byte aligned for float4 access");
  saxpy_vec4_kernel<<<blocks, threads, 0, ctx.stream()>>>(x, y, z, kAutotuneAlpha, ctx.param("n"));
  AISP_LAUNCH_CHECK();
}
