// ch17 pipeline_parallelism, baseline: sequential layer execution (pipeline_parallelism.cuh).
//
// Technique: micro-batch 0 through layers 1-8, then micro-batch 1, ... : 64 kernels in order on the
// harness stream, each waiting for the previous one.
// Why it is slow: one layer on one micro-batch is 32 CTAs, a quarter of the GPU; nothing else runs beside
// it, so three quarters of the SMs idle for the whole forward pass (and every kernel pays its own ramp and
// tail on the critical path).
// Expected on Hopper: 64 x ~10 us = ~0.6-0.7 ms.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 2.516 ms, ~39 us per layer kernel.
#include "pipeline_parallelism.cuh"

namespace {

using namespace pipeline;

class SequentialLayers : public PipelineParallelismBase {
 public:
  std::string technique() const override { return "sequential: micro-batch by micro-batch, layer by layer, one stream"; }
  void run(aisp::Context& ctx) override {
    for (int m = 0; m < kMicro; ++m)
      for (int l = 0; l < kLayers; ++l) layer(ctx, m, l, ctx.stream());
  }
};

}  // namespace

AISP_BENCHMARK(SequentialLayers)
