// caching_allocator: a step whose temporaries are allocated and freed every time, as an eager framework
// without an allocator would do. `layers` = 12 elementwise layers over n = 2 Mi floats (8 MiB per
// activation): layer l computes a_l = tanh(w_l * a_{l-1} + b_l) into a fresh 8 MiB activation, the last
// layer writes the output y, and the step ends by freeing its 11 temporaries.
//
//   baseline_caching_allocator.cu    cudaMalloc per activation, cudaFree of all of them at the end of the step
//   optimized_caching_allocator.cu   the same requests served by a BlockCache (block_cache.hpp)
//
// The subject is host-side cost (cudaMalloc maps pages, cudaFree synchronizes the device), so both
// variants open the timed window on the host (../common/host_window.hpp): the events see the host's
// allocation calls as well as the kernels. Both run the same kernels in the same order: outputs are
// bit-identical and the default fp32 tolerance applies.
#pragma once
#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

inline constexpr int64_t kAllocN = int64_t{1} << 21;
inline constexpr int64_t kAllocLayers = 12;

namespace {

__global__ void alloc_layer_kernel(const float* __restrict__ in, float* __restrict__ out,
                                   const float* __restrict__ coef, int layer, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = tanhf(__fmaf_rn(coef[2 * layer], in[i], coef[2 * layer + 1]));
}

}  // namespace

class CachingAllocatorBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kAllocN}, {"layers", kAllocLayers}};
    w.precision = aisp::DType::f32;
    // Minimum traffic: each layer reads its input and writes its output once.
    w.bytes = 2.0 * kAllocN * kAllocLayers * sizeof(float);
    w.flops = 2.0 * kAllocN * kAllocLayers;
    w.items = static_cast<double>(kAllocLayers - 1);
    w.item_unit = "temporaries";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.input("coef", aisp::DType::f32, {2 * ctx.param("layers")}, aisp::Fill::uniform(0.5, 1.5));
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
  }

 protected:
  // Layer l reads `in` and writes `out` on stream s.
  static void launch_layer(aisp::Context& ctx, const float* in, float* out, int layer) {
    const int64_t n = ctx.param("n");
    alloc_layer_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        in, out, ctx.buffer("coef").as<const float>(), layer, n);
    AISP_LAUNCH_CHECK();
  }
  static size_t activation_bytes(aisp::Context& ctx) { return static_cast<size_t>(ctx.param("n")) * sizeof(float); }
};
