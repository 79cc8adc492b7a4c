// scattered_copies: bring 1024 scattered 16 KiB blocks of a pinned host pool to the GPU and use them - the
// shape of swapping paged KV-cache blocks back in, gathering embedding rows kept in host memory, or
// loading the selected experts' slices. The host pool holds 4096 blocks of 4096 floats (64 MiB, pinned,
// filled from a static input in setup()); piece i is pool block (1237 i) mod 4096 (1237 is odd, so the 1024
// blocks are distinct and spread over the whole pool). Each block then goes through y = b * c0 + c1.
//   baseline_scattered_copies.cu             one cudaMemcpyAsync per block (1024 calls), then the kernel
//   optimized_scattered_copies.cu            one cudaMemcpyBatchAsync for all 1024 blocks, then the kernel
//   optimized_scattered_copies_zero_copy.cu  no copy calls: one kernel reads the blocks straight from the
//                                            mapped pinned pool over PCIe and writes y
// Every variant computes y from the same floats with the same expression: outputs match bit for bit.
//
// The cost being optimized is largely host-side (1024 driver calls), so every run() opens the timed window
// on the host first (../common/host_window.hpp): the events then see the host issue the copies.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"
#include "../common/host_window.hpp"

namespace scattered_copies {

inline constexpr int64_t kPoolBlocks = 4096, kBlockElems = 4096, kPieces = 1024;
inline constexpr size_t kBlockBytes = kBlockElems * sizeof(float);  // 16 KiB

inline int64_t pool_block(int64_t piece) { return (piece * 1237) % kPoolBlocks; }

// y[piece][e] = block[e] * c0 + c1, four floats per thread.
__device__ __forceinline__ float4 transform(float4 v, float c0, float c1) {
  return make_float4(__fmaf_rn(v.x, c0, c1), __fmaf_rn(v.y, c0, c1), __fmaf_rn(v.z, c0, c1), __fmaf_rn(v.w, c0, c1));
}

__global__ void transform_kernel(const float4* __restrict__ in, float4* __restrict__ y, int64_t n4,
                                 const float* __restrict__ coef) {
  const float c0 = coef[0], c1 = coef[1];
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = transform(in[i], c0, c1);
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"pool_blocks", kPoolBlocks}, {"block_elems", kBlockElems}, {"pieces", kPieces}};
    w.precision = aisp::DType::f32;
    const double bytes = static_cast<double>(kPieces) * kBlockBytes;
    w.bytes = 2.0 * bytes;  // the minimum device-side traffic: the blocks arrive once, y is written once
    w.flops = 2.0 * kPieces * kBlockElems;
    w.items = bytes;
    w.item_unit = "PCIe bytes";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const aisp::Buffer pool = ctx.input("pool", aisp::DType::f32, {kPoolBlocks, kBlockElems},
                                        aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("coef", aisp::DType::f32, {2});
    ctx.output("y", aisp::DType::f32, {kPieces, kBlockElems});
    AISP_CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&host_pool_), kPoolBlocks * kBlockBytes, cudaHostAllocMapped));
    AISP_CUDA_CHECK(cudaMemcpy(host_pool_, pool.data, kPoolBlocks * kBlockBytes, cudaMemcpyDeviceToHost));
    setup_variant(ctx);
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    if (host_pool_) cudaFreeHost(host_pool_);
    host_pool_ = nullptr;
  }

 protected:
  virtual void setup_variant(aisp::Context&) {}
  const float* host_block(int64_t piece) const { return host_pool_ + pool_block(piece) * kBlockElems; }
  // The staged variants: the blocks land in a contiguous device buffer, one kernel transforms them.
  void transform_staged(aisp::Context& ctx, const float* staged) const {
    const int64_t n4 = kPieces * kBlockElems / 4;
    const unsigned blocks = static_cast<unsigned>(ctx.device().sm_count * 8);
    transform_kernel<<<blocks, 256, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(staged),
                                                       ctx.buffer("y").as<float4>(), n4,
                                                       ctx.buffer("coef").as<const float>());
    AISP_LAUNCH_CHECK();
  }

  float* host_pool_ = nullptr;
};

}  // namespace scattered_copies
