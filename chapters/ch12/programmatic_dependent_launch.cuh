// programmatic_dependent_launch: a chain of 64 dependent layer kernels, each with a prologue that does not
// depend on the previous layer (loading its own 256-entry scale vector into shared memory, as a real layer
// loads weights, builds descriptors or zeroes accumulators) and a body that does (y = s_l[i % 256] * y + c_l,
// in place over 32 Ki floats). The same kernel serves both variants: baseline_programmatic_dependent_launch.cu
// launches it normally, optimized_programmatic_dependent_launch.cu with Hopper's programmatic dependent
// launch (PDL) attribute. Without that attribute the kernel's `griddepcontrol` instructions are no-ops, so
// the outputs match bit for bit.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"
#include "pdl.cuh"

inline constexpr int64_t kPdlN = int64_t{1} << 15, kPdlLayers = 64, kPdlWidth = 256;

namespace {

__global__ void __launch_bounds__(256) pdl_layer(const float* __restrict__ x, float* y, const float* __restrict__ scales,
                                                 const float* __restrict__ shifts, int layer, int64_t n) {
  __shared__ float s[kPdlWidth];
  // Prologue: independent of the previous layer's output.
  s[threadIdx.x] = scales[layer * kPdlWidth + threadIdx.x];
  const float c = shifts[layer];
  allow_next_grid();
  __syncthreads();
  // Body: needs the previous layer's y (layer 0 reads x).
  wait_for_previous_grid();
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = __fmaf_rn(s[i % kPdlWidth], layer == 0 ? x[i] : y[i], c);
}

}  // namespace

class ProgrammaticDependentLaunchBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kPdlN}, {"layers", kPdlLayers}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kPdlN * sizeof(float) + kPdlLayers * (kPdlWidth + 1) * sizeof(float);
    w.flops = 2.0 * kPdlN * kPdlLayers;
    w.items = static_cast<double>(kPdlLayers);
    w.item_unit = "layers";
    return w;
  }

  // griddepcontrol is sm_90+ PTX (a no-op without the PDL launch attribute, but it must exist).
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

  void setup(aisp::Context& ctx) override {
    const int64_t layers = ctx.param("layers");
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.input("scales", aisp::DType::f32, {layers, kPdlWidth}, aisp::Fill::uniform(0.95, 1.05));
    ctx.input("shifts", aisp::DType::f32, {layers}, aisp::Fill::uniform(-0.05, 0.05));
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
  }

 protected:
  // All layers on the harness stream; `pdl` adds the programmatic-stream-serialization attribute.
  static void launch_layers(aisp::Context& ctx, bool pdl) {
    const int64_t n = ctx.param("n");
    const float* x = ctx.buffer("x").as<const float>();
    float* y = ctx.buffer("y").as<float>();
    const float* scales = ctx.buffer("scales").as<const float>();
    const float* shifts = ctx.buffer("shifts").as<const float>();
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>((n + 255) / 256));
    cfg.blockDim = dim3(256);
    cfg.stream = ctx.stream();
    cfg.attrs = pdl ? &attr : nullptr;
    cfg.numAttrs = pdl ? 1 : 0;
    for (int layer = 0; layer < static_cast<int>(ctx.param("layers")); ++layer)
      AISP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, pdl_layer, x, y, scales, shifts, layer, n));
  }
};
