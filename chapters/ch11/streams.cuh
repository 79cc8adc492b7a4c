// streams: a host-fed stage in three steps, H2D copy -> compute -> D2H copy, over a 32 MiB fp32 batch that
// lives in pinned host memory (a decoded input batch, say), with the results copied back to pinned host
// memory (where the consumer reads them). Shared by baseline_streams.cu (the three steps over the whole
// batch, one after the other on the harness stream) and optimized_streams.cu (the batch cut into chunks,
// each chunk's three steps on one of several streams, so chunk i's kernel runs while chunk i+1 arrives and
// chunk i-1 leaves).
//
// Sizes chosen so the three steps cost about the same: 32 MiB each way at ~50 GB/s (pinned, PCIe Gen5 x16)
// is ~0.65 ms per direction, and `iters` = 1024 dependent FMAs per element over 8 Mi elements is
// 8.6 G FMA: ~0.26 ms at H100 SXM's fp32 FMA peak (132 SMs x 128 lanes x 1.98 GHz = 33 T FMA/s), ~0.5 ms
// as measured (2048 iterations took ~1.0 ms in the first run: the loop runs at about half the FMA peak).
// Serialized ~1.8 ms; perfectly overlapped ~0.7 ms.
//
// The host batch is a static input (filled by the harness before setup(), copied into the pinned buffer
// once there, as a loader would have left it). The dynamic input `coef` drives the compute,
// y = a*y + b repeated `iters` times starting from y = x (a = coef[0], b = coef[1] - 0.999), so the output
// follows every fresh input.
// Both variants run the identical kernel on identical elements: outputs match bit for bit.
#pragma once
#include <algorithm>
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kStreamsN = int64_t{1} << 23;  // 8 Mi floats = 32 MiB
inline constexpr int64_t kStreamsIters = 1024;

namespace {

// One element per thread, a grid-stride loop so any chunk size works with any grid.
// Dependent FMAs: `iters` x 2 flops per element; ILP comes from the many resident threads.
__global__ void streams_compute(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                                const float* __restrict__ coef, int iters) {
  const float a = coef[0], b = coef[1] - 0.999f;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    float v = x[i];
    for (int k = 0; k < iters; ++k) v = __fmaf_rn(a, v, b);
    y[i] = v;
  }
}

}  // namespace

class StreamsBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double n = kStreamsN;
    aisp::Workload w;
    w.params = {{"n", kStreamsN}, {"iters", kStreamsIters}};
    w.precision = aisp::DType::f32;
    // Device memory: H2D writes x, the kernel reads x and writes y, D2H reads y.
    w.bytes = 4.0 * n * sizeof(float);
    w.flops = 2.0 * n * kStreamsIters;
    w.items = 2.0 * n * sizeof(float);
    w.item_unit = "PCIe bytes";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const aisp::Buffer batch = ctx.input("batch", aisp::DType::f32, {n}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    // a in [0.999, 0.9995): after 1024 steps a^iters is 0.36-0.6, so x still shows in every output;
    // b in [0, 5e-4): the fixed point b / (1 - a) stays O(1).
    ctx.input("coef", aisp::DType::f32, {2}, aisp::Fill::uniform(0.999, 0.9995));
    ctx.output("y", aisp::DType::f32, {n});
    x_dev_ = static_cast<float*>(ctx.scratch("x_dev", n * sizeof(float)));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_in_), n * sizeof(float), cudaHostAllocDefault));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_out_), n * sizeof(float), cudaHostAllocDefault));
    AISP_CUDA_CHECK(cudaMemcpy(host_in_, batch.data, n * sizeof(float), cudaMemcpyDeviceToHost));
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    if (host_in_) cudaFreeHost(host_in_);
    if (host_out_) cudaFreeHost(host_out_);
    host_in_ = host_out_ = nullptr;
  }

 protected:
  // H2D, compute, D2H of elements [begin, begin + count) on stream s.
  void stage(aisp::Context& ctx, cudaStream_t s, int64_t begin, int64_t count) {
    const size_t bytes = count * sizeof(float);
    float* y = ctx.buffer("y").as<float>();
    AISP_CUDA_CHECK(cudaMemcpyAsync(x_dev_ + begin, host_in_ + begin, bytes, cudaMemcpyHostToDevice, s));
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((count + 255) / 256, 8192));
    streams_compute<<<blocks, 256, 0, s>>>(x_dev_ + begin, y + begin, count, ctx.buffer("coef").as<const float>(),
                                           static_cast<int>(ctx.param("iters")));
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaMemcpyAsync(host_out_ + begin, y + begin, bytes, cudaMemcpyDeviceToHost, s));
  }

  float* x_dev_ = nullptr;
  float* host_in_ = nullptr;
  float* host_out_ = nullptr;
};
