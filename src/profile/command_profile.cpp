#include "profile/command_profile.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "profile/tools.hpp"

namespace aisp::profile {
namespace fs = std::filesystem;
namespace {

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string last_lines(const std::string& text, size_t lines = 8) {
  size_t pos = text.size(), n = 0;
  while (pos > 0 && n <= lines) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
    ++n;
  }
  return pos < text.size() ? text.substr(pos + 1) : text;  // empty output: nothing to cut
}

json command_doc(const CommandRequest& r, const std::string& tool, const std::vector<std::string>& argv) {
  return {{"schema", kProfileSchema}, {"tool", tool}, {"target", "cmd:" + r.name}, {"variant", r.name},
          {"created_at", now_iso()}, {"profiled_command", r.command}, {"command", argv},
          {"nvtx_range", r.nvtx_range}, {"hardware", r.hardware}, {"tool_version", tool_version(r.tool_path)}};
}

RunOutcome failed(RunOutcome o, const std::string& why) {
  o.error = why;
  o.doc["error"] = why;
  return o;
}

}  // namespace

std::vector<std::string> ncu_command_argv(const CommandRequest& r) {
  std::string stem = (fs::path(r.out_dir) / r.name).string();
  // --target-processes all: a command is often a launcher (python, a shell script) whose child runs the
  // kernels; ncu's default (application-only) would profile nothing in it.
  std::vector<std::string> argv = {r.tool_path, "--target-processes", "all", "--clock-control", r.clock_control,
                                   "--metrics", metric_list(r.preset), "--export", stem, "--force-overwrite"};
  if (r.launch_count > 0) argv.insert(argv.end(), {"--launch-count", std::to_string(r.launch_count)});
  if (!r.nvtx_range.empty()) argv.insert(argv.end(), {"--nvtx", "--nvtx-include", r.nvtx_range + "/"});
  argv.insert(argv.end(), r.command.begin(), r.command.end());
  return argv;
}

std::vector<std::string> nsys_command_argv(const CommandRequest& r) {
  std::vector<std::string> argv = {r.tool_path, "profile", "--force-overwrite=true", "-t", "cuda,nvtx,osrt", "-o",
                                   (fs::path(r.out_dir) / r.name).string()};
  argv.insert(argv.end(), r.command.begin(), r.command.end());
  return argv;
}

RunOutcome profile_command_ncu(const CommandRequest& r) {
  fs::create_directories(r.out_dir);
  std::string stem = (fs::path(r.out_dir) / r.name).string();
  std::vector<std::string> argv = ncu_command_argv(r);
  RunOutcome o;
  o.log_file = stem + ".ncu.log";
  o.doc = command_doc(r, "ncu", argv);
  o.doc["preset"] = r.preset;
  o.doc["launch_count"] = r.launch_count;
  o.doc["files"] = {{"report", stem + ".ncu-rep"}, {"log", o.log_file}};
  ToolRun run = run_tool(argv, o.log_file, r.timeout_s);
  o.doc["exit_code"] = run.exit_code;
  if (!run.error.empty()) return failed(o, run.error);
  if (run.timed_out) return failed(o, fmt::format("ncu did not finish within {:.0f} s (killed); log {}", r.timeout_s, o.log_file));
  if (!fs::exists(stem + ".ncu-rep"))
    return failed(o, fmt::format("ncu exited {} and wrote no report (did the command launch a kernel?); log {}:\n{}",
                                 run.exit_code, o.log_file, last_lines(run.output)));
  std::string csv_file = stem + ".csv";
  ToolRun imp = run_tool({r.tool_path, "--import", stem + ".ncu-rep", "--csv", "--page", "raw", "--print-units", "base"},
                         csv_file, 300);
  o.doc["files"]["csv"] = csv_file;
  if (imp.exit_code != 0) return failed(o, fmt::format("ncu --import failed ({}): {}", imp.exit_code, last_lines(imp.output)));
  try {
    o.doc["kernels"] = kernels_to_json(parse_ncu_csv(imp.output).kernels);
  } catch (const std::exception& e) {
    return failed(o, fmt::format("{}: {}", csv_file, e.what()));
  }
  // The report exists, so the profile is usable even when the command itself then failed: say both.
  if (run.exit_code != 0) o.doc["warning"] = fmt::format("the command (under ncu) exited {}", run.exit_code);
  o.ok = true;
  return o;
}

RunOutcome profile_command_nsys(const CommandRequest& r) {
  fs::create_directories(r.out_dir);
  std::string stem = (fs::path(r.out_dir) / r.name).string();
  std::vector<std::string> argv = nsys_command_argv(r);
  RunOutcome o;
  o.log_file = stem + ".nsys.log";
  o.doc = command_doc(r, "nsys", argv);
  o.doc["files"] = {{"report", stem + ".nsys-rep"}, {"log", o.log_file}};
  ToolRun run = run_tool(argv, o.log_file, r.timeout_s);
  o.doc["exit_code"] = run.exit_code;
  if (!run.error.empty()) return failed(o, run.error);
  if (run.timed_out) return failed(o, fmt::format("nsys did not finish within {:.0f} s (killed); log {}", r.timeout_s, o.log_file));
  if (!fs::exists(stem + ".nsys-rep"))
    return failed(o, fmt::format("nsys exited {} and produced no .nsys-rep (log {}): Nsight Systems cannot make "
                                 "reports on this machine:\n{}", run.exit_code, o.log_file, last_lines(run.output)));
  if (run.exit_code != 0) o.doc["warning"] = fmt::format("the command (under nsys) exited {}", run.exit_code);
  o.ok = true;
  return o;
}

}  // namespace aisp::profile
