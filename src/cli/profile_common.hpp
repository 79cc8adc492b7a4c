// What the `aisp profile …` commands share (src/cli/profile_commands.cpp: ncu, sanitizer, nsys and the
// stored-profile readers; src/cli/profile_torch_command.cpp: torch): their options, the target and variants
// one command works on, and where its files go.
#pragma once
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "core/discovery.hpp"

namespace aisp::profile_cli {

struct ProfileArgs {
  std::string target, variant = "all", preset = "minimal", artifacts_dir = "artifacts", db, from, caps;
  std::string sanitizer_tool = "all", clock_control = "none";
  bool no_db = false, as_json = false, fresh = false;
  int warmup = 1;
  double timeout_s = 900;
  std::vector<std::string> command;  // `profile ncu|nsys -- CMD ARGS...`: any command instead of a target
  int launch_count = 20;             // ncu around a command: kernels profiled
  std::string nvtx_include;          // ncu around a command: only kernels inside this NVTX range
  int top = 15;                      // profile torch: rows of the top-ops table
};

[[noreturn]] void fail(const std::string& msg, int code = 2);

// The target and the variants a command works on, from the built plugin tree.
struct Picked {
  Target target;
  std::vector<Variant> variants;  // baseline first
  std::filesystem::path plugin_root;
};

// Exits 2 (fail) naming the nearest targets when `target` is not exactly one, or the variants when none matches.
Picked pick(const std::string& target, const std::string& variant);

// The target id as a file-name part.
std::string safe(const std::string& s);

// <artifacts_dir>/profiles/<stamp>__<tool>__<target>, created (a suffix when it exists).
std::filesystem::path new_profile_dir(const std::string& artifacts_dir, const std::string& tool, const std::string& target);

// `aisp profile torch` (profile_torch_command.cpp).
int torch_command(const ProfileArgs& a);

}  // namespace aisp::profile_cli
