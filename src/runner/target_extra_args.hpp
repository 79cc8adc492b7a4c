// `bench run --target-extra-arg TARGET=ARGS`: options that apply to one target (or one chapter) of a suite
// instead of all of it, e.g. `ch07:copy_scalar=--axis n=1M --iterations 50`. The seed passed such strings
// to a target's own command line; aisp's targets have no command line of their own, so ARGS is a small
// set of bench-run options that make sense per target: the workload axes and the sampling limits. Anything
// else is refused when the request is checked (exit 2), never silently ignored.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/discovery.hpp"
#include "runner/target_runner.hpp"

namespace aisp {

struct TargetExtraArgs {
  std::string text;      // as typed, recorded in the manifest
  std::string selector;  // a target id before axis points ("ch07:copy_scalar") or a chapter ("ch07")
  std::vector<std::string> axes;  // replace the run's --axis list for this target (core/axes.hpp syntax)
  std::optional<int> iterations, warmup;
  std::optional<double> time_limit, min_time, max_noise_pct, timeout_multiplier;
};

// The options this file accepts in ARGS, for help texts and error messages.
inline constexpr const char* kTargetExtraArgOptions =
    "--axis NAME=VALUES (repeatable), --iterations N, --warmup N, --time-limit S, --min-time S, --max-noise PCT, "
    "--timeout-multiplier X";

// Parses "TARGET=ARGS" (split at the first '='; ARGS split on blanks, `--opt value` or `--opt=value`).
// Throws std::invalid_argument naming what is wrong: no '=', an empty target, an unknown option, a
// missing or malformed value.
TargetExtraArgs parse_target_extra_arg(const std::string& text);

// Whether the extra args apply to this target: its id without axis point, or its chapter.
bool applies_to(const TargetExtraArgs& extra, const Target& target);

// The run options of one target with the extra args that apply to it laid over them, in the order given
// (a later one wins on the same option).
RunOptions run_options_for(const Target& target, RunOptions run, const std::vector<TargetExtraArgs>& extras);

}  // namespace aisp
