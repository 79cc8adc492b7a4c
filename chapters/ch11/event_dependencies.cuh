// event_dependencies: two producers on two streams that exchange results every stage, like the two halves
// of a pipeline-parallel step or a solver's coupled fields. Over `stages` stages,
//   a_k[i] = 0.5 a_{k-1}[i] + 0.25 b_{k-1}[i ^ 1]      (kernel A, stream 1)
//   b_k[i] = 0.5 b_{k-1}[i] - 0.25 a_{k-1}[i ^ 1]      (kernel B, stream 2)
// so stage k of each stream needs stage k-1 of both. Shared by baseline_event_dependencies.cu (a
// cudaDeviceSynchronize after every stage) and optimized_event_dependencies.cu (each stream waits only for
// the other's previous stage, through events). Same kernels, same elements: outputs match bit for bit.
//
// Both run()s open the timed window on the host (../common/host_window.hpp): the baseline's cost is host/device
// round trips, which the harness's blocking kernel would otherwise keep out of the events.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"
#include "../common/host_window.hpp"

inline constexpr int64_t kEventDepsN = int64_t{1} << 21;  // 2 Mi floats per field: ~8 us per kernel
inline constexpr int64_t kEventDepsStages = 24;

namespace {

// sign = +1 for A (own = a, other = b), -1 for B (own = b, other = a).
__global__ void event_deps_stage(const float* __restrict__ own, const float* __restrict__ other,
                                 float* __restrict__ out, int64_t n, float sign) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(0.5f, own[i], sign * 0.25f * other[i ^ 1]);
}

}  // namespace

class EventDependenciesBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double n = kEventDepsN, s = kEventDepsStages;
    aisp::Workload w;
    w.params = {{"n", kEventDepsN}, {"stages", kEventDepsStages}};
    w.precision = aisp::DType::f32;
    w.bytes = s * 2.0 * 3.0 * n * sizeof(float);  // per stage and field: two reads, one write
    w.flops = s * 2.0 * 3.0 * n;
    w.items = s;
    w.item_unit = "stages";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("a0", aisp::DType::f32, {n});
    ctx.input("b0", aisp::DType::f32, {n});
    ctx.output("a", aisp::DType::f32, {n});
    ctx.output("b", aisp::DType::f32, {n});
    for (int i = 0; i < 2; ++i) {
      ping_a_[i] = static_cast<float*>(ctx.scratch("a_slot" + std::to_string(i), n * sizeof(float)));
      ping_b_[i] = static_cast<float*>(ctx.scratch("b_slot" + std::to_string(i), n * sizeof(float)));
    }
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
  }

  void teardown(aisp::Context&) override {
    if (side_) cudaStreamSynchronize(side_), cudaStreamDestroy(side_);
    side_ = nullptr;
  }

 protected:
  // Stage k (1-based): kernel A on `sa`, kernel B on `sb`. Stage 1 reads the inputs, the last stage
  // writes the outputs, the ones between alternate two scratch slots.
  void stage(aisp::Context& ctx, int64_t k, cudaStream_t sa, cudaStream_t sb) {
    const int64_t n = ctx.param("n"), last = ctx.param("stages");
    const float* a_in = k == 1 ? ctx.buffer("a0").as<const float>() : ping_a_[(k - 1) % 2];
    const float* b_in = k == 1 ? ctx.buffer("b0").as<const float>() : ping_b_[(k - 1) % 2];
    float* a_out = k == last ? ctx.buffer("a").as<float>() : ping_a_[k % 2];
    float* b_out = k == last ? ctx.buffer("b").as<float>() : ping_b_[k % 2];
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    event_deps_stage<<<blocks, 256, 0, sa>>>(a_in, b_in, a_out, n, 1.0f);
    AISP_LAUNCH_CHECK();
    event_deps_stage<<<blocks, 256, 0, sb>>>(b_in, a_in, b_out, n, -1.0f);
    AISP_LAUNCH_CHECK();
  }

  cudaStream_t side_ = nullptr;
  float* ping_a_[2] = {nullptr, nullptr};
  float* ping_b_[2] = {nullptr, nullptr};
};
