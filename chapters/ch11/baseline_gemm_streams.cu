// ch11 gemm_streams, baseline: the 16 small GEMMs one after another on the harness stream.
//
// Technique: a host loop of kernel launches on one stream, as a framework issues per-expert GEMMs.
// Why it is slow: each GEMM is 16 thread blocks, one per SM, and stream order keeps the next GEMM from
// starting until the last block of the previous one retires: 16 of 132 SMs work, 116 idle.
// Expected on Hopper: 16 x ~40-60 us (a 64 x 64 x 1024 tile at ~40% of one SM's fp32 peak) ~ 0.7-1 ms.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.345 ms (median).
#include "gemm_streams.cuh"

namespace {

class BaselineGemmStreams : public GemmStreamsBase {
 public:
  void run(aisp::Context& ctx) override {
    for (int64_t i = 0; i < ctx.param("gemms"); ++i) gemm(ctx, i, ctx.stream());
  }
  std::string technique() const override { return "16 small GEMM kernels back to back on one stream"; }
};

}  // namespace

AISP_BENCHMARK(BaselineGemmStreams)
