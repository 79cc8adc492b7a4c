#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "mcp/redact.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"

namespace aisp::mcp {

json read_only_annotations() {
  return {{"readOnlyHint", true}, {"destructiveHint", false}, {"idempotentHint", true}, {"openWorldHint", false}};
}

json starts_work_annotations() {
  return {{"readOnlyHint", false}, {"destructiveHint", false}, {"idempotentHint", false}, {"openWorldHint", false}};
}

std::vector<Tool> make_tools(const ServerConfig& config, JobManager& jobs) {
  std::vector<Tool> all;
  for (auto group : {system_tools(config, jobs), catalog_tools(config), job_tools(config, jobs), store_tools(config),
                     insight_tools(config), command_tools(config), ai_tools(config)})
    for (auto& t : group) all.push_back(std::move(t));
  all.push_back(suggest_tools_tool(all));
  return all;
}

std::string ensure_work_dir(const ServerConfig& config) {
  std::error_code ec;
  std::filesystem::create_directories(config.work_dir(), ec);
  if (!std::filesystem::is_directory(config.work_dir(), ec))
    throw ToolError(fmt::format("cannot create the server's work directory {} (aisp mcp --artifacts-dir must be "
                                "writable)", config.work_dir().string()));
  return config.work_dir().string();
}

AispOutput run_aisp(const ServerConfig& config, const std::vector<std::string>& args, ToolCall& call,
                    const std::vector<std::string>& env) {
  std::vector<std::string> argv = {config.aisp_exe};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildOptions o;
  o.env = env;
  if (!config.artifacts_dir.empty()) {
    // An unwritable artifacts directory (a client that starts the server in / with the default relative
    // one) must not take the read-only tools down with the jobs: they run in / then, where a relative
    // default path can write nothing of consequence (jobs refuse to start instead, see tools_jobs.cpp).
    try {
      o.cwd = ensure_work_dir(config);
    } catch (const ToolError&) {
      o.cwd = "/";
    }
  }
  o.cancel = &call.cancelled;
  o.timeout_s = config.sync_timeout_s;
  o.stdout_limit = size_t{64} << 20;
  o.on_stderr_line = [&](const std::string& line) {
    if (!line.empty()) call.progress(++call.steps, 0, line.substr(0, 200));
  };
  // One report before the child starts, so a client sees the call is alive even when the command is silent.
  call.progress(++call.steps, 0, fmt::format("running aisp {}", fmt::join(args.begin(), args.begin() + std::min<size_t>(args.size(), 3), " ")));
  AispOutput out;
  out.child = run_child(argv, o);
  if (out.child.started) {
    out.document = json::parse(out.child.out, nullptr, false);
    if (out.document.is_discarded()) out.document = nullptr;
  }
  return out;
}

std::string failure_text(const std::string& what, const ChildResult& r) {
  std::string text = fmt::format("{}: {}", what, r.describe());
  if (r.timed_out) text += " (the synchronous limit is under the clients' 60 s request timeout)";
  size_t from = r.stderr_tail.size() > 8 ? r.stderr_tail.size() - 8 : 0;
  for (size_t i = from; i < r.stderr_tail.size(); ++i)
    if (!r.stderr_tail[i].empty()) text += "\n" + hide_parser_context(r.stderr_tail[i]);
  return text;
}

std::string arg_string(const json& args, const char* name, const std::string& fallback) {
  auto it = args.find(name);
  return it != args.end() && it->is_string() ? it->get<std::string>() : fallback;
}

double arg_number(const json& args, const char* name, double fallback) {
  auto it = args.find(name);
  return it != args.end() && it->is_number() ? it->get<double>() : fallback;
}

bool arg_bool(const json& args, const char* name, bool fallback) {
  auto it = args.find(name);
  return it != args.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string bench_exit_meaning(int code) {
  switch (code) {
    case 0: return "0: every target succeeded";
    case 1: return "1: a regression, a failed verification or a failed target (see the results)";
    case 2: return "2: usage error (unknown target, no GPU, unwritable artifacts directory)";
    case 3: return "3: a variant is INVALID, or a strict run was refused by the environment gate";
    default: return fmt::format("{}: unexpected exit code", code);
  }
}

}  // namespace aisp::mcp
