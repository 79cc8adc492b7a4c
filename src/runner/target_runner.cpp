#include "runner/target_runner.hpp"

#include "runner/target_run.hpp"

namespace aisp {

// The phases and their order: runner/target_run.hpp; one file per phase (runner/phase_*.cpp).
TargetResult run_target(const Target& target, const RunOptions& options) { return TargetRun(target, options).run(); }

}  // namespace aisp
