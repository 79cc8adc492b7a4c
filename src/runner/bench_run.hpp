// The bench-run use case (`aisp bench run`, `aisp bench calibrate`): a BenchRequest executed from the
// selectors to the stored run. Order, each step before the next costs anything: the request's rules, the
// profiler's presence, the targets (compiled for --bench-root, resolved once, A/A copies, axis points),
// the run directory, the GPU facts, the environment gate, the manifest, the calibration to apply, the
// suite with its expectations step, the store, the profiles, and for calibrate the noise-floor file.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/environment_gate.hpp"
#include "runner/bench_catalog.hpp"
#include "runner/bench_host.hpp"
#include "runner/bench_request.hpp"
#include "runner/bench_suite.hpp"
#include "runner/calibration_update.hpp"

namespace aisp {

struct BenchOutcome {
  std::filesystem::path run_dir;
  std::vector<Target> targets;  // as run: after the A/A copies and the axis points
  std::vector<TargetResult> results;
  // The command's exit code: the suite's (0 all good, 1 a failure, 3 an INVALID variant) for a run; 0
  // for a calibration that wrote its file (the A/A verdicts are not the point of it).
  int exit_code = 0;
  std::optional<CalibrationUpdate> calibration;  // calibrate: the floor written
};

// Runs the request. Refusals before any benchmark starts throw BenchError with their exit code (2 usage:
// unknown target or mode, bad axis or noise-floor file, no GPU; 3 a strict environment gate), and leave
// no run directory behind.
BenchOutcome run_bench(const BenchRequest& request, BenchHost& host);

// `calibrate --from-run DIR`: no GPU work; the floor of an earlier A/A run merged into
// <artifacts>/calibration/noise_floor_<hwkey>.json. A run whose manifest recorded no commit takes the
// binary's checkout's.
CalibrationUpdate calibrate_from_run(const std::filesystem::path& run_dir, const std::filesystem::path& artifacts_dir,
                                     BenchHost& host);

// The pieces of run_bench that only translate the request (pure; tested on a CPU).
SuiteOptions suite_options(const BenchRequest& request, const std::filesystem::path& aisp_exe,
                           const std::filesystem::path& plugin_root, const std::filesystem::path& source_root);
json bench_manifest(const BenchRequest& request, const json& system_info, const EnvironmentReport& env,
                    const json& git, const json& build, const std::vector<std::string>& compile_failures);

}  // namespace aisp
