// bidirectional_copies: activation offload and weight prefetch at the same time, the traffic pattern of
// CPU-offloaded training (ZeRO-Offload) and of KV-cache swapping: 32 MiB of activations `x` go down to
// pinned host memory while the next layer's 32 MiB of weights come up from pinned host memory, then one
// kernel combines them (y = w + x, standing in for the layer that needs both).
// Shared by baseline_bidirectional_copies.cu (both copies on the harness stream, one after the other) and
// optimized_bidirectional_copies.cu (the download on a second stream, forked and joined with events, so
// the two directions overlap). Same copies, same kernel: outputs match bit for bit.
//
// The host weights are a static input copied into pinned memory in setup() (weights a loader pinned
// once); `x` is dynamic, so the output follows every fresh input.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kBidirN = int64_t{1} << 23;  // 8 Mi floats = 32 MiB each way

namespace {

__global__ void bidir_combine(const float* __restrict__ w, const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = w[i] + x[i];
}

}  // namespace

class BidirectionalCopiesBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double n = kBidirN;
    aisp::Workload w;
    w.params = {{"n", kBidirN}};
    w.precision = aisp::DType::f32;
    // Device memory: D2H reads x, H2D writes w, the kernel reads both and writes y.
    w.bytes = 5.0 * n * sizeof(float);
    w.flops = n;
    w.items = 2.0 * n * sizeof(float);
    w.item_unit = "PCIe bytes";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const aisp::Buffer weights = ctx.input("weights", aisp::DType::f32, {n}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
    w_dev_ = static_cast<float*>(ctx.scratch("w_dev", n * sizeof(float)));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_weights_), n * sizeof(float), cudaHostAllocDefault));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_offload_), n * sizeof(float), cudaHostAllocDefault));
    AISP_CUDA_CHECK(cudaMemcpy(host_weights_, weights.data, n * sizeof(float), cudaMemcpyDeviceToHost));
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    if (host_weights_) cudaFreeHost(host_weights_);
    if (host_offload_) cudaFreeHost(host_offload_);
    host_weights_ = host_offload_ = nullptr;
  }

 protected:
  void offload(aisp::Context& ctx, cudaStream_t s) {
    const aisp::Buffer x = ctx.buffer("x");
    AISP_CUDA_CHECK(cudaMemcpyAsync(host_offload_, x.data, x.bytes(), cudaMemcpyDeviceToHost, s));
  }
  void prefetch(aisp::Context& ctx, cudaStream_t s) {
    AISP_CUDA_CHECK(cudaMemcpyAsync(w_dev_, host_weights_, ctx.param("n") * sizeof(float), cudaMemcpyHostToDevice, s));
  }
  void combine(aisp::Context& ctx, cudaStream_t s) {
    bidir_combine<<<ctx.device().sm_count * 8, 256, 0, s>>>(w_dev_, ctx.buffer("x").as<const float>(),
                                                             ctx.buffer("y").as<float>(), ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  float* w_dev_ = nullptr;
  float* host_weights_ = nullptr;
  float* host_offload_ = nullptr;
};
