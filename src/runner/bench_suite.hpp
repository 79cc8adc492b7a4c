// A bench run over many targets: the run directory, the manifest, results written after every target
// (atomically, so a killed run loses at most the target in flight), reports and raw samples at the end.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/discovery.hpp"
#include "core/expectation_check.hpp"
#include "core/noise_floor.hpp"
#include "core/result.hpp"
#include "runner/target_extra_args.hpp"
#include "runner/target_runner.hpp"

namespace aisp {

struct SuiteOptions {
  RunOptions run;
  std::filesystem::path artifacts_dir = "artifacts";
  std::string label = "bench";
  std::vector<std::string> formats = {"json", "md", "csv"};
  json manifest;  // filled by the caller (hardware, software, git); the suite adds timing and warnings
  bool live_progress = true;
  std::optional<NoiseFloor> noise_floor;  // this GPU's calibration, when one exists
  ExpectationCheckOptions expectations;   // compare with expectations_<hwkey>.json after the run
  std::vector<TargetExtraArgs> target_extras;  // --target-extra-arg: run options of single targets
  // --suite-timeout: > 0, no target starts after this many seconds; the rest become skipped results.
  double suite_timeout_s = 0;
  // --cold-start: each target gets a fresh output device from this factory (the previous one, with its
  // IPC mappings and stream, is released first) and the workers run with CUDA's JIT cache disabled.
  bool cold_start = false;
  std::function<std::shared_ptr<OutputDevice>()> fresh_output_device;
};

// --cold-start, before each target: nothing the previous target left behind is reused. The supervisor's
// output device (IPC mappings, stream) is released and a new one made from `fresh_output_device`; the
// Python workers' compiler caches ($TRITON_CACHE_DIR, $TORCHINDUCTOR_CACHE_DIR, inherited by the workers)
// point at empty folders under `caches`, so a torch.compile or Triton variant compiles from scratch
// instead of loading what an earlier target (or run) compiled. The suite removes `caches` afterwards.
void cold_start_target(SuiteOptions& options, RunOptions& run, const std::filesystem::path& caches);

// The result recorded for a target the suite did not start because --suite-timeout was reached.
TargetResult not_run_result(const Target& target, double limit_s, double elapsed_s);

struct SuiteOutcome {
  std::filesystem::path run_dir;
  std::vector<TargetResult> results;
  int exit_code = 0;
};

// Creates artifacts/runs/<YYYYmmdd_HHMMSS>__bench__<label>[__N]/ and proves it writable; throws with a
// clear message otherwise (before any GPU work starts).
std::filesystem::path prepare_run_dir(const std::filesystem::path& artifacts_dir, const std::string& label);

// Local time formatted with strftime (run directory names, manifest times).
std::string now_stamp(const char* format);

SuiteOutcome run_suite(const std::vector<Target>& targets, const std::filesystem::path& run_dir, SuiteOptions options);

}  // namespace aisp
