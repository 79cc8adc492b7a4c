// async_prefetch: a 9-tap 1D stencil (binomial smoothing, out[i] = sum_d w[d] * in[i + d], zero outside
// the array) computed by a persistent tiled kernel that stages each tile (plus its halo) in shared memory.
// Shared by baseline_async_prefetch.cu (synchronous loads: load tile, sync, compute, repeat) and
// optimized_async_prefetch.cu (cp.async ring of stages: the next tiles load while this one computes).
// Both run the same grid, the same tile size and the same arithmetic in the same order, so their outputs
// are identical bit for bit; only when the bytes arrive differs.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 2^24 floats in, 2^24 out: 128 MiB per run (2.7x H100's 50 MB L2), ~46 us at the ~2.9 TB/s a copy reaches.
inline constexpr int64_t kPrefetchN = int64_t{1} << 24;
inline constexpr int kPrefetchRadius = 4;  // 9 taps; 4 floats = 16 B, so halos keep tiles float4-aligned
// One tile = 2048 outputs, computed by 512 threads (4 consecutive outputs each, one float4 store).
inline constexpr int kPrefetchTile = 2048;
inline constexpr int kPrefetchThreads = 512;
// Input span of a tile in float4s: 2048 outputs + 2 x 4 halo floats = 514 float4 (8224 B of shared memory).
inline constexpr int kPrefetchSpan4 = (kPrefetchTile + 2 * kPrefetchRadius) / 4;
static_assert(kPrefetchTile == 4 * kPrefetchThreads, "each thread computes one float4 of outputs");

inline aisp::Workload async_prefetch_workload() {
  aisp::Workload w;
  w.params = {{"n", kPrefetchN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kPrefetchN) * sizeof(float);  // in read once, out written once
  w.flops = 2.0 * (2 * kPrefetchRadius + 1) * static_cast<double>(kPrefetchN);
  w.items = static_cast<double>(kPrefetchN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class AsyncPrefetchBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return async_prefetch_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};

// Persistent grid, one 512-thread block per SM: the shape of a tiled mainloop with a large tile (GEMM,
// attention), where occupancy cannot hide load latency and the pipeline has to.
inline unsigned async_prefetch_grid(const aisp::Context& ctx) {
  return static_cast<unsigned>(ctx.device().sm_count > 0 ? ctx.device().sm_count : 132);
}

inline void check_async_prefetch_shape(int64_t n) {
  if (n % kPrefetchTile != 0) throw std::runtime_error("async_prefetch: n must be a multiple of the tile");
}

// Global float4 index of the first float4 of tile t's input span (may be -1: the left halo of tile 0).
__device__ __forceinline__ int64_t prefetch_span_start4(int64_t tile) {
  return (tile * kPrefetchTile - kPrefetchRadius) / 4;
}

// Computes this thread's 4 outputs of the tile whose span sits in `span` (shared memory) and stores them.
// Taps 1 8 28 56 70 56 28 8 1 (/256), summed left to right with one fmaf each in both variants.
__device__ __forceinline__ void prefetch_compute_store(const float* span, float* __restrict__ out, int64_t tile) {
  constexpr float kTaps[2 * kPrefetchRadius + 1] = {1.f / 256, 8.f / 256,  28.f / 256, 56.f / 256, 70.f / 256,
                                                     56.f / 256, 28.f / 256, 8.f / 256,  1.f / 256};
  const int base = threadIdx.x * 4;  // outputs base..base+3 need span[base .. base + 3 + 2R]
  const float4* span4 = reinterpret_cast<const float4*>(span + base);
  const float4 v0 = span4[0], v1 = span4[1], v2 = span4[2];
  const float v[12] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w, v2.x, v2.y, v2.z, v2.w};
  float r[4];
#pragma unroll
  for (int o = 0; o < 4; ++o) {
    float acc = 0.0f;
#pragma unroll
    for (int d = 0; d <= 2 * kPrefetchRadius; ++d) acc = fmaf(kTaps[d], v[o + d], acc);
    r[o] = acc;
  }
  reinterpret_cast<float4*>(out + tile * kPrefetchTile)[threadIdx.x] = make_float4(r[0], r[1], r[2], r[3]);
}
