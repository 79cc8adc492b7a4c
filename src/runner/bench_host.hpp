// What a bench run needs from outside the runner layer: the binary's own paths, the GPU facts (from a
// child process), the environment gate, the results store and the profiler. The CLI binds them
// (cli/bench_commands.cpp); the unit tests bind fakes, so the whole use case runs on a CPU. An interface,
// not direct calls, because the store and the profiler are layers beside the runner, not below it.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/discovery.hpp"
#include "core/environment_gate.hpp"
#include "core/output_device.hpp"
#include "runner/bench_suite.hpp"

namespace aisp {

class BenchHost {
 public:
  virtual ~BenchHost() = default;
  virtual std::filesystem::path aisp_exe() = 0;           // the binary the workers are started from
  virtual std::filesystem::path built_plugin_root() = 0;  // the build's plugin tree ($AISP_PLUGIN_DIR, ...)
  virtual std::filesystem::path source_root() = 0;        // the checkout holding chapters/ (empty: none)
  // The GPU facts of `aisp info gpu --json`, from a child process so the supervisor has no CUDA context
  // while the environment gate reads the GPU's process list; a discarded json when the query failed.
  virtual json system_info() = 0;
  virtual EnvironmentReport environment_gate(const json& system_info, ValidityProfile profile) = 0;
  virtual json git_info() = 0;    // {commit, branch, dirty} of the binary's checkout; nulls outside one
  virtual json build_info() = 0;  // {cuda_architectures, build_type} the binary was configured with
  // Refuses (throws, exit 2) when the profiler is missing: called before any GPU time is spent.
  virtual void require_profiler() = 0;
  // Adds a finished run to the results store (`db` as given to --db); warns, never throws.
  virtual void store_run(const std::filesystem::path& run_dir, const std::string& db,
                         const std::filesystem::path& artifacts_dir) = 0;
  // Profiles every variant after the timing; warns, never throws.
  virtual void profile_run(const std::vector<Target>& targets, const std::filesystem::path& plugin_root,
                           const std::filesystem::path& run_dir, const std::string& preset, const std::string& db,
                           const std::filesystem::path& artifacts_dir) = 0;
  // Harness-only device access to the workers' outputs (CUDA IPC, runtime/ipc_output_device.hpp); null
  // (the default, and every test): outputs are compared from dumped files.
  virtual std::shared_ptr<OutputDevice> output_device() { return nullptr; }
  // The targets, timed (runner/bench_suite.hpp); a fake returns prepared results.
  virtual SuiteOutcome run_suite(const std::vector<Target>& targets, const std::filesystem::path& run_dir,
                                 const SuiteOptions& options) {
    return aisp::run_suite(targets, run_dir, options);
  }
};

}  // namespace aisp
