// ch11 stream_priority, baseline: the bulk job and the critical chain on two streams of equal priority.
//
// Technique: concurrency without priorities: separate streams let the chain run beside the bulk job in
// principle.
// Why it is slow: the block scheduler dispatches equal-priority work in launch order: all 131072 bulk
// blocks were queued first, so each critical kernel waits until the bulk kernel's last blocks have been
// dispatched. The chain effectively starts when the bulk job ends: time ~ bulk + chain.
// Expected on Hopper: ~1.0 ms of bulk + ~200 x 2-3 us of chain = ~1.4-1.6 ms on an H100 SXM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.582 ms (median).
#include "stream_priority.cuh"

namespace {

class BaselineStreamPriority : public StreamPriorityBase {
 public:
  BaselineStreamPriority() : StreamPriorityBase(false) {}
  std::string technique() const override { return "bulk and critical streams at the default priority"; }
};

}  // namespace

AISP_BENCHMARK(BaselineStreamPriority)
