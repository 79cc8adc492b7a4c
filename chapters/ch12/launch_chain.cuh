// launch_chain: the launch-bound chain shared by ch12 cuda_graphs and kernel_fusion. `links` = 200 tiny
// dependent steps over a 16 KiB fp32 vector, link l computing y = a_l * y + b_l (a_l = coef[2l],
// b_l = coef[2l + 1] - 1): the shape of an inference step's tail of small elementwise and normalization
// kernels, each with too little work to cover its own launch. The first link reads the input `x`, the
// others update the output `y` in place.
//
// Every variant performs the same 200 fused multiply-adds per element in the same order, so the outputs
// match bit for bit. `coef` is a dynamic input (a_l in [0.97, 1.03), b_l in [-0.03, 0.03)), so the output
// follows both inputs.
//
// Launch-bound means the host's issue rate is the limit, so every run() of these pairs opens the timed
// window on the host (../common/host_window.hpp): the events then see the host issue the chain, as a real
// inference loop does, instead of a pre-filled launch queue.
#pragma once
#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"
#include "pdl.cuh"

inline constexpr int64_t kChainN = int64_t{1} << 12;  // 4 Ki floats: 16 blocks of 256, ~1 us of GPU work
inline constexpr int64_t kChainLinks = 200;

namespace {

__device__ __forceinline__ float chain_step(float v, const float* __restrict__ coef, int link) {
  return __fmaf_rn(coef[2 * link], v, coef[2 * link + 1] - 1.0f);
}

// One link: one launch. The two griddepcontrol instructions matter only when the chain is launched with
// programmatic dependent launch (cuda_graphs' PDL variant); under plain stream order they are no-ops.
__global__ void chain_link(const float* __restrict__ in, float* __restrict__ out, const float* __restrict__ coef,
                           int link, int64_t n) {
  allow_next_grid();
  wait_for_previous_grid();
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = chain_step(in[i], coef, link);
}

inline unsigned chain_blocks(int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

// The whole chain as `links` launches on stream s (what the baselines run, and what the graph captures).
inline void launch_chain(cudaStream_t s, const float* x, float* y, const float* coef, int64_t n, int64_t links) {
  for (int64_t l = 0; l < links; ++l) {
    chain_link<<<chain_blocks(n), 256, 0, s>>>(l == 0 ? x : y, y, coef, static_cast<int>(l), n);
    AISP_LAUNCH_CHECK();
  }
}

// The same chain with the programmatic-stream-serialization attribute on every launch (Hopper PDL): link
// l+1 may be launched while link l runs and waits in griddepcontrol.wait for l's completion and writes.
inline void launch_chain_pdl(cudaStream_t s, const float* x, float* y, const float* coef, int64_t n, int64_t links) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(chain_blocks(n));
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  for (int64_t l = 0; l < links; ++l)
    AISP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, chain_link, l == 0 ? x : static_cast<const float*>(y), y, coef,
                                       static_cast<int>(l), n));
}

}  // namespace

class LaunchChainBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kChainN}, {"links", kChainLinks}};
    w.precision = aisp::DType::f32;
    // Minimum traffic: x read and y written once (what the fused kernel moves); the chain of launches
    // moves 200x that, mostly in L2.
    w.bytes = 2.0 * kChainN * sizeof(float) + 2.0 * kChainLinks * sizeof(float);
    w.flops = 2.0 * kChainN * kChainLinks;
    w.items = static_cast<double>(kChainLinks);
    w.item_unit = "links";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.input("coef", aisp::DType::f32, {2 * ctx.param("links")}, aisp::Fill::uniform(0.97, 1.03));
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
  }

 protected:
  static void launch_all(aisp::Context& ctx, cudaStream_t s) {
    launch_chain(s, ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(), ctx.buffer("coef").as<const float>(),
                 ctx.param("n"), ctx.param("links"));
  }
};
