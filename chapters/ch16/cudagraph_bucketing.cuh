// cudagraph_bucketing: the decode loop of a small model at changing batch sizes, launched eagerly vs as CUDA
// graphs captured per batch-size bucket (vLLM's cudagraph capture sizes). 24 decode steps; step s serves
// the first b_s of 32 request rows (b_s from a fixed schedule between 1 and 32, as a scheduler admits and
// retires requests). A step is 4 layers x 4 small kernels over a 256-wide state per row - RMSNorm, matvec
// W1 (256 x 256, bf16), SiLU, matvec W2 + residual - plus one kernel that advances the step counter: 17
// launches per step, 408 per run, each ~1-2 us of GPU work: the launch overhead is the cost.
// Every kernel runs one block per launched row and reads the step's real batch b_s from a device-side
// schedule (sched[*step]); blocks past b_s exit at once. So a launch may be padded to a larger grid without
// changing the result: outputs match bit for bit.
//   baseline_cudagraph_bucketing.cu    eager: 408 launches per run, each grid exactly b_s
//   optimized_cudagraph_bucketing.cu   6 graphs captured in setup() for buckets {1, 2, 4, 8, 16, 32}; step s
//                                      launches the graph of the smallest bucket >= b_s (padded rows idle)
// Timing: the cost being removed is the host's, so both variants open the timed window on the host
// (../common/host_window.hpp, as ch12's cuda_graphs): every host cycle of run() is inside the window.
// Expected on H100 (ch12 measured ~5.6 us per eager launch and ~1.8 us of GPU time per graph node): eager
// ~2.3 ms, graphs ~1.2 ms: ~1.9x.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

inline constexpr int kCgRows = 32, kCgDim = 256, kCgLayers = 4, kCgSteps = 24;

// The batch of step s: a fixed spread over 1..32 (the host knows it: it is the scheduler's decision).
constexpr int cg_batch(int s) { return 1 + (s * 13 + 7) % kCgRows; }

namespace cudagraph_bucketing {

// Row r's state h[r] -> t[r] = h / rms(h) * g.
__global__ void rmsnorm(const int* sched, const int* step, const float* __restrict__ h, const float* __restrict__ g,
                        float* __restrict__ t) {
  const int r = blockIdx.x, j = threadIdx.x;
  if (r >= sched[*step]) return;
  const float v = h[r * kCgDim + j];
  float sq = v * v;
  for (int o = 16; o > 0; o >>= 1) sq += __shfl_xor_sync(0xffffffffu, sq, o);
  __shared__ float part[kCgDim / 32];
  if (j % 32 == 0) part[j / 32] = sq;
  __syncthreads();
  float sum = 0;
  for (int w = 0; w < kCgDim / 32; ++w) sum += part[w];
  t[r * kCgDim + j] = v * rsqrtf(sum / kCgDim + 1e-6f) * g[j];
}

// out[r][j] = (residual ? out[r][j] : 0) + sum_k w[k][j] in[r][k]  (w input-major: [k][j]).
// Warp g sums k in [32 g, 32 g + 32) for all 256 outputs (lane: outputs 2 lane + 64 m, m = 0..3, one bf16x2
// load each, coalesced): 128 independent loads per thread instead of a 256-long chain of dependent steps,
// so the block's 128 KiB of W (L2-resident) streams in ~1 us. The 8 warp partials are then added in order.
template <bool kResidual>
__global__ void matvec(const int* sched, const int* step, const __nv_bfloat16* __restrict__ w, const float* __restrict__ in,
                       float* __restrict__ out) {
  const int r = blockIdx.x, j = threadIdx.x, g = j / 32, lane = j % 32;
  if (r >= sched[*step]) return;
  __shared__ float x[kCgDim];
  __shared__ float part[kCgDim / 32][kCgDim];
  x[j] = in[r * kCgDim + j];
  __syncthreads();
  float acc[8] = {};
#pragma unroll 8
  for (int kk = 0; kk < 32; ++kk) {
    const int k = g * 32 + kk;
    const float xv = x[k];
#pragma unroll
    for (int m = 0; m < 4; ++m) {
      const float2 wv = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(w + k * kCgDim + 2 * lane + 64 * m));
      acc[2 * m] = __fmaf_rn(wv.x, xv, acc[2 * m]);
      acc[2 * m + 1] = __fmaf_rn(wv.y, xv, acc[2 * m + 1]);
    }
  }
#pragma unroll
  for (int m = 0; m < 4; ++m) part[g][2 * lane + 64 * m] = acc[2 * m], part[g][2 * lane + 64 * m + 1] = acc[2 * m + 1];
  __syncthreads();
  float sum = 0;
#pragma unroll
  for (int p = 0; p < kCgDim / 32; ++p) sum += part[p][j];
  out[r * kCgDim + j] = kResidual ? out[r * kCgDim + j] + sum : sum;
}

__global__ void silu(const int* sched, const int* step, float* __restrict__ u) {
  const int r = blockIdx.x, j = threadIdx.x;
  if (r >= sched[*step]) return;
  const float v = u[r * kCgDim + j];
  u[r * kCgDim + j] = v / (1.0f + expf(-v));
}

__global__ void advance(int* step) { ++*step; }

__global__ void copy_rows(const float* __restrict__ from, float* __restrict__ to) {
  to[blockIdx.x * kCgDim + threadIdx.x] = from[blockIdx.x * kCgDim + threadIdx.x];
}

}  // namespace cudagraph_bucketing

class CudagraphBucketingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"rows", kCgRows}, {"dim", kCgDim}, {"layers", kCgLayers}, {"steps", kCgSteps}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kCgRows * kCgDim * 4 + 2.0 * kCgLayers * 2 * kCgDim * kCgDim + 4.0 * kCgLayers * kCgDim;
    double rows = 0;
    for (int s = 0; s < kCgSteps; ++s) rows += cg_batch(s);
    w.flops = rows * kCgLayers * 4.0 * kCgDim * kCgDim;
    w.items = rows;  // tokens decoded
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("h0", aisp::DType::f32, {kCgRows, kCgDim}, aisp::Fill::normal(0, 1));
    ctx.input("w1", aisp::DType::bf16, {kCgLayers, kCgDim, kCgDim}, aisp::Fill::uniform(-0.0625, 0.0625), aisp::Role::static_);
    ctx.input("w2", aisp::DType::bf16, {kCgLayers, kCgDim, kCgDim}, aisp::Fill::uniform(-0.0625, 0.0625), aisp::Role::static_);
    ctx.input("g", aisp::DType::f32, {kCgLayers, kCgDim}, aisp::Fill::uniform(0.5, 1.5), aisp::Role::static_);
    ctx.output("h", aisp::DType::f32, {kCgRows, kCgDim});
    t_ = static_cast<float*>(ctx.scratch("t", kCgRows * kCgDim * sizeof(float)));
    u_ = static_cast<float*>(ctx.scratch("u", kCgRows * kCgDim * sizeof(float)));
    step_ = static_cast<int*>(ctx.scratch("step", sizeof(int)));
    sched_ = static_cast<int*>(ctx.scratch("sched", kCgSteps * sizeof(int)));
    int host_sched[kCgSteps];
    for (int s = 0; s < kCgSteps; ++s) host_sched[s] = cg_batch(s);
    AISP_CUDA_CHECK(cudaMemcpy(sched_, host_sched, sizeof host_sched, cudaMemcpyHostToDevice));
  }

 protected:
  // The prologue of every run: step counter to 0, the state from the input.
  void start(aisp::Context& ctx) {
    AISP_CUDA_CHECK(cudaMemsetAsync(step_, 0, sizeof(int), ctx.stream()));
    cudagraph_bucketing::copy_rows<<<kCgRows, kCgDim, 0, ctx.stream()>>>(ctx.buffer("h0").as<const float>(),
                                                                         ctx.buffer("h").as<float>());
    AISP_LAUNCH_CHECK();
  }
  // One decode step's 17 launches with `grid` blocks each (>= the step's batch).
  void step(aisp::Context& ctx, cudaStream_t s, int grid) {
    using namespace cudagraph_bucketing;
    const auto* w1 = ctx.buffer("w1").as<const __nv_bfloat16>();
    const auto* w2 = ctx.buffer("w2").as<const __nv_bfloat16>();
    const auto* g = ctx.buffer("g").as<const float>();
    float* h = ctx.buffer("h").as<float>();
    for (int l = 0; l < kCgLayers; ++l) {
      const int64_t wl = int64_t(l) * kCgDim * kCgDim;
      rmsnorm<<<grid, kCgDim, 0, s>>>(sched_, step_, h, g + l * kCgDim, t_);
      matvec<false><<<grid, kCgDim, 0, s>>>(sched_, step_, w1 + wl, t_, u_);
      silu<<<grid, kCgDim, 0, s>>>(sched_, step_, u_);
      matvec<true><<<grid, kCgDim, 0, s>>>(sched_, step_, w2 + wl, u_, h);
    }
    advance<<<1, 1, 0, s>>>(step_);
    AISP_LAUNCH_CHECK();
  }

  float *t_ = nullptr, *u_ = nullptr;
  int *step_ = nullptr, *sched_ = nullptr;
};
