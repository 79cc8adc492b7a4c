// ch11 streams, baseline: H2D, compute, D2H of the whole 32 MiB batch, one after the other on one stream.
//
// Technique: the straightforward version with everything already right except concurrency: pinned host
// buffers (so the copies are real DMA at PCIe speed, see ch02 memory_transfer), async copies, no host
// synchronization, all on the harness stream.
// Why it is slow: stream order serializes the three steps, so at any moment two of the three engines
// involved (the H2D copy engine, the SMs, the D2H copy engine) sit idle. Time = H2D + compute + D2H.
// Expected on Hopper: ~0.65 + ~0.52 + ~0.65 ms = ~1.8 ms on an H100 SXM (PCIe Gen5 x16 at ~50 GB/s).
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.759 ms (median).
#include <algorithm>

#include "streams.cuh"

namespace {

class BaselineStreams : public StreamsBase {
 public:
  void run(aisp::Context& ctx) override { stage(ctx, ctx.stream(), 0, ctx.param("n")); }
  std::string technique() const override { return "H2D -> kernel -> D2H of the whole batch on one stream"; }
};

}  // namespace

AISP_BENCHMARK(BaselineStreams)
