// The peer-comparison set (issue 21: aisp's wall time to a verdict against NVBench's and do_bench's on the
// same kernels): a small vector add (launch-bound, ~5 us), a ~71 us vector add, and a ~2 ms compute-bound
// FMA chain; the copies of fidelity_copy.cuh complete it. A/A pairs like the copies: baseline and
// optimized are the same kernel, so the verdict must be SAME and only the harness's own time differs.
// scripts/peer_wall.sh runs them through aisp and the peers.
#pragma once
#include "aisp/aisp.hpp"

namespace fidelity {

__global__ void vadd_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    c[i] = a[i] + b[i];
}

template <int64_t N>
struct VectorAdd : aisp::Benchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", N}};
    w.bytes = 3.0 * N * sizeof(float);
    w.flops = static_cast<double>(N);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("a", aisp::DType::f32, {N});
    ctx.input("b", aisp::DType::f32, {N});
    ctx.output("c", aisp::DType::f32, {N});
  }
  void run(aisp::Context& ctx) override {
    int blocks = static_cast<int>(std::min<int64_t>((N + 255) / 256, ctx.device().sm_count * 8));
    vadd_kernel<<<blocks, 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(),
                                                  ctx.buffer("c").as<float>(), N);
    AISP_LAUNCH_CHECK();
  }
};

// 2^16 floats: launch-bound (a few µs). 2^24 floats: 201 MB moved, ~71 µs at ~2.9 TB/s on an H100.
using VectorAddSmall = VectorAdd<int64_t{1} << 16>;
using VectorAdd71us = VectorAdd<int64_t{1} << 24>;

// A dependent FMA chain per element: compute-bound, ~2 ms on an H100 (kIterations x 2 flops x n).
constexpr int kFmaIterations = 16384;
__global__ void fma_chain_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    float v = x[i], acc = 0.f;
#pragma unroll 16
    for (int k = 0; k < kFmaIterations; ++k) acc = fmaf(acc, 0.999f, v);
    y[i] = acc;
  }
}

struct Compute2ms : aisp::Benchmark {
  static constexpr int64_t kN = int64_t{1} << 22;
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kN}, {"iterations", kFmaIterations}};
    w.bytes = 2.0 * kN * sizeof(float);
    w.flops = 2.0 * kFmaIterations * static_cast<double>(kN);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {kN});
    ctx.output("y", aisp::DType::f32, {kN});
  }
  void run(aisp::Context& ctx) override {
    fma_chain_kernel<<<ctx.device().sm_count * 8, 256, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(),
                                                                          ctx.buffer("y").as<float>(), kN);
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace fidelity
