// One profiler or sanitizer run of one benchmark variant: `aisp worker --once` under ncu or
// compute-sanitizer, its output parsed, and a profile document (JSON) that is written beside the raw
// report, stored in the results store and read back by `profile bottleneck|roofline|compare`.
//
// Profile document ("aisp.profile/1"): {schema, tool, tool_version, preset | sanitizer_tool, target,
// variant, plugin, created_at, nvtx_range, command, hardware{...}, kernels[{id, name, block, grid,
// metrics{name: {value, unit}}}] | sanitizer{errors, findings[...]}, one_shot{...}, files{...}}.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "profile/ncu_csv.hpp"
#include "profile/sanitizer_output.hpp"

namespace aisp::profile {

using json = nlohmann::json;

inline constexpr const char* kProfileSchema = "aisp.profile/1";
inline constexpr const char* kNvtxRange = "aisp_timed";

struct RunRequest {
  std::string aisp_exe;       // this binary, re-executed as `aisp worker --once`
  std::string tool_path;      // ncu or compute-sanitizer
  std::string plugin;         // the variant's .so
  std::string target, variant;
  std::string out_dir;        // <variant>.ncu-rep, .csv, .log, .oneshot.json go here
  std::string preset = "minimal";       // ncu
  std::string sanitizer_tool = "memcheck";
  // ncu's default (base) locks clocks, which these VMs refuse; "none" profiles at the clocks the GPU runs.
  std::string clock_control = "none";
  int warmup = 1;
  double timeout_s = 900;
  json hardware;              // {hardware_key, gpu_model, device{...}} recorded in the document
  std::map<std::string, std::string> env;  // extra environment for the child (AISP_AXIS_*)
};

struct RunOutcome {
  bool ok = false;
  std::string error;    // why not, in words a user can act on
  json doc;             // the profile document (also on failure, with "error")
  std::string log_file;
};

RunOutcome run_ncu(const RunRequest& r);
RunOutcome run_sanitizer(const RunRequest& r);

// Metric-name list for --metrics (comma-joined).
std::string metric_list(const std::string& preset);

json kernels_to_json(const std::vector<KernelProfile>& ks);
std::vector<KernelProfile> kernels_from_json(const json& j);
json sanitizer_to_json(const SanitizerReport& r);

}  // namespace aisp::profile
