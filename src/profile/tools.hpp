// Finding and running the external NVIDIA tools (ncu, compute-sanitizer, nsys) without a shell: a
// missing tool is reported with every place that was looked in, a hung one is killed with its process
// group after a timeout.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace aisp::profile {

struct ToolLocation {
  std::string name;                     // ncu | compute-sanitizer | nsys
  std::string path;                     // empty when not found
  std::vector<std::string> looked_in;   // in search order, for the error message
  bool found() const { return !path.empty(); }
  std::string missing_message() const;  // "ncu not found; looked in: $AISP_NCU (unset), PATH (...), ..."
};

// Search order: $<env_var> (a full path; when set, the only place looked in), then PATH, then the CUDA toolkit's bin/ (/usr/local/cuda/bin,
// $CUDA_HOME/bin) and the standalone install folders (/opt/nvidia/nsight-compute/<version>/,
// /usr/local/cuda/nsight-compute-*/, /opt/nvidia/nsight-systems/<version>/bin/).
ToolLocation find_tool(const std::string& name, const std::string& env_var);

struct ToolRun {
  int exit_code = -1;       // -1 when it could not start or was killed
  bool timed_out = false;
  std::string output;       // stdout + stderr (also written to the log file when one was given)
  std::string error;        // why it could not start
  double seconds = 0;
};

// Runs argv[0] with argv (no shell), stdout+stderr to `log_file` (and returned), its own process group,
// killed after `timeout_s`. `env` entries are added to the child's environment.
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& log_file, double timeout_s,
                 const std::map<std::string, std::string>& env = {});

// The first line of `<tool> --version` that names a version ("Version 2025.3.1.0 (build ...)").
std::string tool_version(const std::string& path);

}  // namespace aisp::profile
