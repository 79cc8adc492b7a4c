#include "runner/target_runner.hpp"

#include <fmt/format.h>

#include "core/seed_mix.hpp"
#include "runner/target_run.hpp"
#include "runner/trace_replicates.hpp"

namespace aisp {

// The phases and their order: runner/target_run.hpp; one file per phase (runner/phase_*.cpp). A latency
// goal runs once per request trace (runner/trace_replicates.hpp); progress then says which trace, and
// "done" comes once, after the last.
TargetResult run_target(const Target& target, const RunOptions& options) {
  RunOptions one = options;
  int trace = 0;
  one.on_progress = [&](const Progress& p) {
    if (!options.on_progress || p.phase == "done") return;
    Progress labelled = p;
    if (trace > 0) labelled.variant = fmt::format("{} (trace {}/{})", p.variant, trace + 1, options.trace_replicates);
    options.on_progress(labelled);
  };
  std::vector<TargetResult> runs{TargetRun(target, one).run()};
  if (wants_trace_replicates(runs[0], options)) {
    for (trace = 1; trace < options.trace_replicates; ++trace) {
      if (options.reproducible) one.seed = splitmix64(options.seed + static_cast<uint64_t>(trace));
      runs.push_back(TargetRun(target, one).run());
      // A baseline that fails on a trace ends the target with that run's result (its error names the trace).
      if (runs.back().baseline.status != status::succeeded || !runs.back().error.empty()) {
        runs.back().error = fmt::format("request trace {} of {}: {}", trace + 1, options.trace_replicates,
                                        runs.back().error.empty() ? runs.back().baseline.error : runs.back().error);
        runs = {runs.back()};
        break;
      }
    }
  }
  TargetResult out = pool_trace_replicates(runs, options);
  if (options.on_progress) options.on_progress({target.id, "*", "done"});
  return out;
}

}  // namespace aisp
