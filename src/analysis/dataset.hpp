// What the analyses read: one or more runs (from the store through Store::load_runs, or from a results
// file), the hardware they ran on, and the inputs the per-variant derivations need.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "aisp/device_info.hpp"
#include "analysis/measured_number.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace aisp::analysis {

// Numeric series per target, variant and metric (telemetry the store or results file carries beside the
// timings: power_w, energy_mj, sm_mhz ...). target -> variant -> metric -> values.
using Telemetry = TelemetrySeries;

// The GPU a run was measured on, and where roofline ceilings come from.
struct Hardware {
  std::string gpu_model, hardware_key;
  DeviceInfo device;           // from the run manifest's gpus[0]; zeros when the run had no manifest
  double power_limit_w = kNaN;
  json capabilities;           // hardware_capabilities_<hwkey>.json (measured ceilings), or null
  std::string capabilities_path;
};

// One stored run: its identity, targets and telemetry.
struct RunData {
  int64_t id = 0;  // store row id; 0 for a results file
  std::string key, stamp, label, mode, git_commit, hardware_key, gpu_model;
  std::vector<TargetResult> targets;
  Telemetry telemetry;
  json manifest;  // null when not available
};

// What the commands analyse: the chosen run (`runs.back()`) and, from a store, the earlier runs of the same
// hardware for history and scaling.
struct Dataset {
  std::vector<RunData> runs;  // oldest first; never empty after a successful load
  Hardware hardware;          // of runs.back()
  std::string source;         // "store artifacts/aisp.db, run 3 (20261122_...)" or "file <path>"
  const RunData& current() const { return runs.back(); }
};

// From a store: `run_spec` as Store::resolve_run accepts ("latest", an id, a key or prefix); `history_runs`
// earlier runs of the same hardware key are loaded too (0 = only the chosen run).
Dataset load_store(const std::filesystem::path& db, const std::string& run_spec = "latest", size_t history_runs = 50);
// A run loaded through Store::load_runs, as the analyses read it.
RunData run_data_of(StoredRun run);
// From a results file or a run directory (manifest.json beside it is used when present).
Dataset load_file(const std::filesystem::path& results_or_run_dir);
// Looks for hardware_capabilities_<hwkey>.json: `explicit_path` when given, else in each of `dirs`.
// Fills hw.capabilities/capabilities_path; returns false when none was found.
bool attach_capabilities(Hardware& hw, const std::string& explicit_path, const std::vector<std::filesystem::path>& dirs);

// What the per-variant derivations read besides the targets: the GPU the run was measured on (for the
// roofline ceilings) and the run's telemetry (for energy).
struct DerivationInputs {
  Hardware hardware;
  Telemetry telemetry;  // of the analysed run
};
DerivationInputs derivation_inputs(const Dataset& d);

}  // namespace aisp::analysis
