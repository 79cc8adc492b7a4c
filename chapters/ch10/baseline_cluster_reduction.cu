// ch10 cluster_reduction, baseline: the 8 partial sums of a row combined with global atomics, two passes.
//
// Technique: the portable way to reduce across blocks. A memset clears the 2048 per-row sums; kernel 1
// (2048 x 8 blocks) has each block sum the squares of its 8192-float slice and atomicAdd the block's total
// into its row's sum in global memory; kernel 2 (same grid) reads the finished sum, reads x again and
// writes y. The kernel boundary is the only grid-wide barrier a non-cluster launch has, and the slice held
// in registers does not survive it.
// Why it is slow: x (512 MiB) crosses HBM twice - 1.5 GiB of traffic for a 1 GiB minimum. The atomics
// themselves are cheap (16384 of them, one per block, spread over 2048 addresses).
// Expected on Hopper (H100 SXM, ~3 TB/s): ~0.55 ms. Measured (H100 SXM, harness, cold, 2026-11-25):
// 537.6 us: 1.5 GiB (x twice, y once) in 537.6 us = 3.0 TB/s, the streaming ceiling.
#include "cluster_reduction.cuh"

namespace {

using namespace cluster_reduction;

__global__ void __launch_bounds__(kThreads) partial_sums_kernel(const float4* __restrict__ x, float* row_ss) {
  __shared__ float scratch[kThreads / 32];
  float acc = 0.0f;
#pragma unroll
  for (int i = 0; i < kVecPerThread; ++i) acc += sum_squares(x[slice_vec(i)]);
  acc = block_sum(acc, scratch);
  if (threadIdx.x == 0) atomicAdd(&row_ss[blockIdx.y], acc);
}

__global__ void __launch_bounds__(kThreads)
normalize_kernel(const float4* __restrict__ x, const float4* __restrict__ gamma, const float* __restrict__ row_ss,
                 float4* __restrict__ y) {
  const float s = rsqrtf(row_ss[blockIdx.y] / static_cast<float>(kCols) + kEps);
#pragma unroll
  for (int i = 0; i < kVecPerThread; ++i) {
    const int64_t v = slice_vec(i);
    y[v] = scale_row(x[v], gamma[blockIdx.x * (kSliceCols / 4) + i * kThreads + threadIdx.x], s);
  }
}

class BaselineClusterReduction : public Pair {
 protected:
  void setup_variant(aisp::Context& ctx) override {
    row_ss_ = static_cast<float*>(ctx.scratch("row_ss", kRows * sizeof(float)));
  }

 public:
  void run(aisp::Context& ctx) override {
    const dim3 grid(kSplit, static_cast<unsigned>(kRows));
    const auto* x = ctx.buffer("x").as<const float4>();
    AISP_CUDA_CHECK(cudaMemsetAsync(row_ss_, 0, kRows * sizeof(float), ctx.stream()));
    partial_sums_kernel<<<grid, kThreads, 0, ctx.stream()>>>(x, row_ss_);
    AISP_LAUNCH_CHECK();
    normalize_kernel<<<grid, kThreads, 0, ctx.stream()>>>(x, ctx.buffer("gamma").as<const float4>(), row_ss_,
                                                         ctx.buffer("y").as<float4>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "per-block partials + global atomicAdd, second pass over x"; }

 private:
  float* row_ss_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineClusterReduction)
