// ch12 graph_multistream, baseline: eager fork/join: four branch streams forked from the harness stream by
// an event, 50 launches on each, each joined back by an event.
//
// Technique: multi-stream concurrency issued from the host every step.
// Why it is slow: the branches do run concurrently on the GPU, but the host issues 200 launches and 9 event
// operations one by one (~3-5 us each in a VM), and each tiny kernel finishes long before the host has
// issued the next: the step is host-bound.
// Expected on Hopper: ~200 x 3-5 us = ~0.6-1 ms on an H100 VM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.188 ms (median).
#include "graph_multistream.cuh"

namespace {

class BaselineGraphMultistream : public GraphMultistreamBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    issue(ctx, ctx.stream());
  }
  std::string technique() const override { return "eager fork/join over 4 streams, 200 launches"; }
};

}  // namespace

AISP_BENCHMARK(BaselineGraphMultistream)
