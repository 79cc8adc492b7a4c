// stream_ordered: a step loop that needs a fresh temporary every step, the way an eager framework's
// operators allocate activations and workspaces. Each of `steps` steps allocates a 16 MiB temporary,
//   tmp   = x * coef[s] + coef[steps + s]       (kernel 1 writes the temporary)
//   y[s]  = tmp * tmp - x                        (kernel 2 reads it back)
// and frees it. Shared by baseline_stream_ordered.cu (cudaMalloc / cudaFree every step) and
// optimized_stream_ordered.cu (cudaMallocFromPoolAsync / cudaFreeAsync from a pool made in setup()).
// Both run the same two kernels on the same elements: outputs match bit for bit.
//
// The allocations are the point of the pair, and allocation cost is host time (cudaMalloc is a driver
// call that maps pages; cudaFree also waits for the whole device), so both run()s open the timed window
// on the host first (../common/host_window.hpp).
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"
#include "../common/host_window.hpp"

inline constexpr int64_t kStreamOrderedN = int64_t{1} << 22;  // 4 Mi floats = 16 MiB per temporary
inline constexpr int64_t kStreamOrderedSteps = 8;

namespace {

__global__ void stream_ordered_produce(const float* __restrict__ x, float* __restrict__ tmp, int64_t n,
                                       const float* __restrict__ coef, int step, int steps) {
  const float a = coef[step], b = coef[steps + step];
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    tmp[i] = __fmaf_rn(x[i], a, b);
}

__global__ void stream_ordered_consume(const float* __restrict__ x, const float* __restrict__ tmp,
                                       float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = __fmaf_rn(tmp[i], tmp[i], -x[i]);
}

}  // namespace

class StreamOrderedBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double n = kStreamOrderedN, s = kStreamOrderedSteps;
    aisp::Workload w;
    w.params = {{"n", kStreamOrderedN}, {"steps", kStreamOrderedSteps}};
    w.precision = aisp::DType::f32;
    // Per step: x read twice, tmp written and read, y[s] written (x's second read may hit L2: counted anyway,
    // 16 MiB does not stay resident across the tmp pass on a 50 MB L2 with 48 MiB in flight).
    w.bytes = s * 5.0 * n * sizeof(float);
    w.flops = s * 4.0 * n;
    w.items = s;
    w.item_unit = "steps";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n"), steps = ctx.param("steps");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("coef", aisp::DType::f32, {2 * steps});
    ctx.output("y", aisp::DType::f32, {steps, n});
  }

 protected:
  // The step's two kernels around a temporary the variant allocated.
  static void step(aisp::Context& ctx, float* tmp, int64_t s) {
    const int64_t n = ctx.param("n");
    const float* x = ctx.buffer("x").as<const float>();
    float* y = ctx.buffer("y").as<float>() + s * n;
    const unsigned blocks = static_cast<unsigned>(ctx.device().sm_count * 8);
    stream_ordered_produce<<<blocks, 256, 0, ctx.stream()>>>(x, tmp, n, ctx.buffer("coef").as<const float>(),
                                                             static_cast<int>(s), static_cast<int>(ctx.param("steps")));
    AISP_LAUNCH_CHECK();
    stream_ordered_consume<<<blocks, 256, 0, ctx.stream()>>>(x, tmp, y, n);
    AISP_LAUNCH_CHECK();
  }
};
