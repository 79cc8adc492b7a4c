// A latency verdict over several request traces. A trace is one seeded draw from the pair's TraceSpec, and
// a p50/p99 over a few dozen requests moves with the draw far more than with timing noise (measured on an
// H200: ch16:runtime_scheduler 1.25x to 3.83x over seven runs, each with a +-2% interval). So a latency
// goal runs the target once per trace, each run complete (its own processes, setup, verification, checks
// and interleaved timing, with 1/N of the sampling budget), and pools them: the point is the geometric
// mean of the runs' speedups, the interval comes from their spread (core/replicate_pool.hpp), so it covers
// the choice of trace as well as the timing noise. A failure in any run fails the variant; a baseline
// failure ends the target with that run's result.
#pragma once
#include <vector>

#include "core/result.hpp"
#include "core/stopping.hpp"

namespace aisp {

struct RunOptions;  // runner/target_runner.hpp

// `policy` with its sampling budget (time limit, minimum GPU time) divided among `replicates` runs.
StoppingPolicy replicate_share(StoppingPolicy policy, int replicates);

// Whether `first` (the first trace's run) is a latency comparison to run on more traces.
bool wants_trace_replicates(const TargetResult& first, const RunOptions& options);

// The runs of one target on different traces, pooled into one result (`runs` in trace order, every
// baseline succeeded). Samples are concatenated, counters summed, each variant's per-trace numbers kept
// in trace_replicates, and its speedup, interval, verdict and goal metric decided over the traces.
TargetResult pool_trace_replicates(const std::vector<TargetResult>& runs, const RunOptions& options);

}  // namespace aisp
