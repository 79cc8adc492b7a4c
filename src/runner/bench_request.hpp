// What a user asked of `aisp bench run` / `aisp bench calibrate`, as plain data. The CLI fills it from the
// flags (docs/cli.md: every default here is the flag's default); runner/bench_run.hpp executes it. The
// functions below are the request's own rules, pure so they are tested on a CPU.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/discovery.hpp"
#include "runner/target_extra_args.hpp"

namespace aisp {

struct BenchRequest {
  std::vector<std::string> targets;  // selectors: all, chNN, chNN:example, labs/<lab>[:example], variant names
  std::string bench_root;            // compile (cached) and run the .cu pairs under it instead of the built plugins
  std::string mode = "cold";         // cold | hot | graph
  std::vector<std::string> axes;     // "--axis name=values", one per axis (core/axes.hpp)
  int iterations = 0;                // > 0: exactly this many samples per variant (no adaptive stopping)
  int warmup = 5;
  double timeout_multiplier = 1.0;
  double time_limit = 15.0;  // seconds of sampling per variant before stopping anyway
  double max_noise = 0.5;    // percent, as the user types it (the stopping policy takes a fraction)
  double min_time = 0.5;     // accumulated GPU seconds per variant
  int trace_replicates = 5;  // latency goals: request traces per target, pooled (runner/trace_replicates.hpp)
  std::string artifacts_dir = "artifacts";
  std::string format = "all";  // reports besides JSON: json | md | csv | all
  std::string label;           // run directory label; empty: derived from the selectors
  std::string validity_profile = "portable";  // portable | strict (the environment gate)
  std::string validity = "on";                // on | off (off only to measure the checks' overhead)
  bool reproducible = false;
  // `bench calibrate` (A/A): every selected baseline timed against `replicates` copies of itself, each in
  // its own worker process; never compared with expectations, never profiled.
  bool calibrate = false;
  int replicates = 3;
  std::string noise_floor_file;  // run: the calibration to apply; empty: the default search; "none": none
  bool update_expectations = false, accept_regressions = false;
  std::string db;      // results store; empty: $AISP_DB, else <artifacts_dir>/aisp.db
  bool no_db = false;  // do not store the run
  std::string profile = "none";  // ncu preset run over every variant after the timing
  bool live_progress = true;     // the progress line on stderr (off when stdout carries JSON)
  bool keep_outputs = false;     // every compared output also dumped to files, kept under the run's work/
  // > 0: no target starts once the suite has run this many seconds; the rest are recorded as skipped
  // (reason "suite_timeout") and listed in the manifest; a target in flight is never cut short.
  double suite_timeout_s = 0;
  // Nothing of one target is reused by the next (docs/cli.md says what that changes): a fresh output
  // comparison device per target, CUDA's on-disk JIT cache off for the workers; recorded in the manifest.
  bool cold_start = false;
  std::string ncu_metric_set = "auto";       // the ncu preset of the profile step; auto: --profile's
  std::vector<std::string> target_extra_args;  // "TARGET=ARGS" (runner/target_extra_args.hpp)
  // Multi-rank targets (issue 26, runner/rank_plan.hpp): N ranks, one worker per GPU, started by the
  // supervisor (local) or by one Open MPI job (mpirun). Only the plan is built so far: a run with N > 1 is
  // refused until the target phases collect per-rank results (docs/multi-gpu.md); --print-launch-plan
  // prints the plan without running anything.
  int nproc_per_node = 1;
  std::string launch_via = "local";  // local | mpirun
  bool ranks_on_one_gpu = false;     // dry run: every rank on the first visible GPU (recorded in the plan)
  bool print_launch_plan = false;
};

// A request the runner refuses, with the exit code docs/cli.md gives it (2 usage, 3 refused by the
// environment gate, 1 nothing measured). `option` names the flag at fault when one is: the CLI reports
// those as usage errors of that flag, exactly as its own parser would.
struct BenchError : std::runtime_error {
  BenchError(std::string kind, const std::string& message, int exit_code, std::string option = {})
      : std::runtime_error(message), kind(std::move(kind)), option(std::move(option)), exit_code(exit_code) {}
  std::string kind, option;
  int exit_code;
};

// Throws BenchError for a request that cannot run (an unknown --mode or --ncu-metric-set, a negative
// --suite-timeout, a malformed --target-extra-arg, --nproc-per-node or --trace-replicates below 1, an
// unknown --launch-via), before any work starts.
void check_request(const BenchRequest& request);

// The ncu preset the profile step runs: --ncu-metric-set unless auto, else --profile; "none": no profiling.
std::string profile_preset(const BenchRequest& request);

// The --target-extra-arg values parsed; throws BenchError (option --target-extra-arg) for a malformed one.
std::vector<TargetExtraArgs> target_extra_args(const BenchRequest& request);

// The run directory label: --label, else "targets-" / "calibrate-" and the selectors joined by '_'.
std::string run_label(const BenchRequest& request);

// The report formats the suite writes: JSON always, plus the one asked for (or md and csv for "all").
std::vector<std::string> report_formats(const BenchRequest& request);

// The selected targets as they will run: for calibrate, each baseline's optimized variants replaced by
// `replicates` copies of the baseline (aa_self_1…); then each target once per --axis point (every
// combination, first axis outermost). A target a --target-extra-arg with --axis applies to takes those
// axes instead of the run's. Throws BenchError (option --axis or --target-extra-arg) for a malformed axis,
// and for an extra arg that applies to no selected target (a typo must not pass silently).
std::vector<Target> targets_to_run(std::vector<Target> selected, const BenchRequest& request);

}  // namespace aisp
