// Timing-fidelity pairs (not a chapter): a plain float copy sized to take about 10 µs, 50 µs and 2 ms on
// an H100, so aisp's cold-mode median can be compared with ncu's gpu__time_duration for the same kernel.
// Baseline and optimized are the same kernel; run through `--bench-root tests/timing`.
#pragma once
#include "aisp/aisp.hpp"

namespace fidelity {

__global__ void fidelity_copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

template <int64_t N>
struct Copy : aisp::Benchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", N}};
    w.bytes = 2.0 * N * sizeof(float);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("in", aisp::DType::f32, {N});
    ctx.output("out", aisp::DType::f32, {N});
  }
  void run(aisp::Context& ctx) override {
    int blocks = ctx.device().sm_count * 8;
    fidelity_copy_kernel<<<blocks, 256, 0, ctx.stream()>>>(ctx.buffer("in").as<const float4>(),
                                                           ctx.buffer("out").as<float4>(), N / 4);
    AISP_LAUNCH_CHECK();
  }
};

// ~10 µs: 2 x 4 Mi floats x 4 B = 32 MB (the validity-overhead measurement uses this one).
using Copy10us = Copy<int64_t{4} << 20>;
// ~50 µs at ~3 TB/s: 2 x 19 Mi floats x 4 B = 160 MB (larger than L2, so cold and hot differ little).
using Copy50us = Copy<int64_t{19} << 20>;
// ~2 ms: 2 x 768 Mi floats x 4 B = 6.4 GB.
using Copy2ms = Copy<int64_t{768} << 20>;

}  // namespace fidelity
