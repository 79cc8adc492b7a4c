// graph_conditional: a loop whose trip count the GPU decides. Starting from y = x (4096 floats), each
// iteration scales y by the rate r and measures max |y|; the loop stops once max |y| <= 1e-3 (or after
// 1000 iterations). With r drawn from [0.85, 0.9) and max |x| ~ 1 that is 43-66 iterations, different for
// every fresh input: a convergence loop (an iterative solver, a decode loop until end-of-sequence) whose
// exit test needs the data. Outputs: y after the last iteration and the iteration count.
// Shared by baseline_graph_conditional.cu (the host reads the flag back after every iteration and decides)
// and optimized_graph_conditional.cu (a CUDA graph with a while-conditional node: the kernel sets the
// loop condition on the device). Both run the same per-iteration math and the same reduction: outputs
// match bit for bit.
//
// The baseline's cost is host round trips, so both run()s open the timed window on the host
// (../common/host_window.hpp).
#pragma once
#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

inline constexpr int64_t kCondN = 4096, kCondMaxIters = 1000;
inline constexpr float kCondEps = 1e-3f;

namespace {

constexpr int kCondThreads = 1024;  // one block: 4 elements per thread

// y = x and iterations = 0.
__global__ void cond_init(const float* __restrict__ x, float* __restrict__ y, int* __restrict__ iterations, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = x[i];
  if (threadIdx.x == 0) *iterations = 0;
}

// One iteration: y *= r, then (block-wide) max |y|. Returns, in thread 0 only, whether to go on.
__device__ __forceinline__ bool cond_iteration(float* __restrict__ y, const float* __restrict__ rate,
                                               int* __restrict__ iterations, int n) {
  __shared__ float warp_max[kCondThreads / 32];
  const float r = *rate;
  float m = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const float v = __fmul_rn(y[i], r);
    y[i] = v;
    m = fmaxf(m, fabsf(v));
  }
  for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x != 0) return false;
  for (int w = 1; w < kCondThreads / 32; ++w) m = fmaxf(m, warp_max[w]);
  const int it = ++*iterations;
  return m > kCondEps && it < kCondMaxIters;
}

}  // namespace

class GraphConditionalBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kCondN}, {"max_iters", kCondMaxIters}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kCondN * sizeof(float);  // x read, y written; the iterations stay in L2
    w.flops = 2.0 * kCondN * 43;             // at least 43 iterations of a multiply and a max
    w.items = 1;
    w.item_unit = "loops";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.input("rate", aisp::DType::f32, {1}, aisp::Fill::uniform(0.85, 0.9));
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
    ctx.output("iterations", aisp::DType::i32, {1});
  }

 protected:
  static void init(aisp::Context& ctx, cudaStream_t s) {
    cond_init<<<1, kCondThreads, 0, s>>>(ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                         ctx.buffer("iterations").as<int>(), static_cast<int>(ctx.param("n")));
    AISP_LAUNCH_CHECK();
  }
};
