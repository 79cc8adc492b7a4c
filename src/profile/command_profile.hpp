// `aisp profile ncu|nsys -- <command>`: the profilers around any command, not only a registered target
// (a PyTorch script, another harness, a binary of one's own). Unlike a target's run there is no NVTX range
// the harness opened and no one-shot result: ncu profiles the command's first `launch_count` kernels (or
// those inside `nvtx_range` when one is given), in every process the command starts; nsys records the
// whole timeline. The report, the log and a profile document (the same "aisp.profile/1" as a target's,
// with target "cmd:<name>") are written under `out_dir`.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "profile/profile_run.hpp"

namespace aisp::profile {

struct CommandRequest {
  std::string tool_path;              // ncu or nsys
  std::vector<std::string> command;   // argv of the profiled command (argv[0] looked up on PATH)
  std::string name;                   // file stem and document variant: the command's base name
  std::string out_dir;
  std::string preset = "minimal";     // ncu: the metric preset (metrics_catalog)
  std::string clock_control = "none"; // ncu: as for targets (the GPU VMs refuse clock locking)
  int launch_count = 20;              // ncu: kernels profiled (each is replayed once per metric pass)
  std::string nvtx_range;             // ncu: only kernels inside this push/pop range; empty: any
  double timeout_s = 900;
  json hardware;
};

// The tool's command line for the request (pure: tested without the tools).
std::vector<std::string> ncu_command_argv(const CommandRequest& r);
std::vector<std::string> nsys_command_argv(const CommandRequest& r);

// Runs the tool around the command; `doc` records the command, the command line, the files, the
// command's exit status as the tool reported it, and for ncu the kernels with their metrics.
RunOutcome profile_command_ncu(const CommandRequest& r);
RunOutcome profile_command_nsys(const CommandRequest& r);

}  // namespace aisp::profile
