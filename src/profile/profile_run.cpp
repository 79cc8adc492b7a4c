#include "profile/profile_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "profile/metrics_catalog.hpp"
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

std::string join_args(const std::vector<std::string>& argv) {
  std::string s;
  for (auto& a : argv) s += (s.empty() ? "" : " ") + (a.find_first_of(" ,\"") == std::string::npos ? a : "'" + a + "'");
  return s;
}

json read_json_or_null(const std::string& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  json j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

json base_doc(const RunRequest& r, const std::string& tool) {
  return {{"schema", kProfileSchema}, {"tool", tool}, {"target", r.target}, {"variant", r.variant},
          {"plugin", r.plugin}, {"created_at", now_iso()}, {"nvtx_range", kNvtxRange}, {"hardware", r.hardware},
          {"tool_version", tool_version(r.tool_path)}};
}

std::vector<std::string> worker_args(const RunRequest& r, const std::string& result_file, int warmup) {
  return {r.aisp_exe, "worker", "--once", "--plugin", r.plugin, "--warmup", std::to_string(warmup),
          "--nvtx-range", kNvtxRange, "--result", result_file};
}

// The last lines of a log, for an error message.
std::string tail(const std::string& text, size_t lines = 8) {
  size_t pos = text.size(), n = 0;
  while (pos > 0 && n <= lines) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
    ++n;
  }
  return pos < text.size() ? text.substr(pos + 1) : text;  // empty output (a tool that printed nothing)
}

}  // namespace

std::string metric_list(const std::string& preset) {
  const Preset* p = find_preset(preset);
  if (!p) throw std::invalid_argument("unknown preset '" + preset + "' (minimal, roofline, deep_dive)");
  std::string s;
  for (auto& x : p->metrics) s += (s.empty() ? "" : ",") + x;
  return s;
}

json kernels_to_json(const std::vector<KernelProfile>& ks) {
  json out = json::array();
  for (auto& k : ks) {
    json metrics = json::object();
    for (auto& [name, v] : k.metrics) {
      if (!std::isfinite(v.value)) continue;  // enum cells (cache config, policy) are not metrics we read
      metrics[name] = {{"value", v.value}, {"unit", v.unit}};
    }
    out.push_back({{"id", k.id}, {"name", k.name}, {"block", k.block}, {"grid", k.grid}, {"metrics", metrics}});
  }
  return out;
}

std::vector<KernelProfile> kernels_from_json(const json& j) {
  std::vector<KernelProfile> out;
  if (!j.is_array()) return out;
  for (auto& x : j) {
    KernelProfile k;
    k.id = x.value("id", 0);
    k.name = x.value("name", "");
    k.block = x.value("block", "");
    k.grid = x.value("grid", "");
    const json metrics = x.value("metrics", json::object());  // a named copy: items() of a temporary dangles
    for (auto& [name, v] : metrics.items()) {
      MetricValue m;
      m.value = v.value("value", kNaN);
      m.unit = v.value("unit", "");
      k.metrics[name] = m;
    }
    out.push_back(std::move(k));
  }
  return out;
}

json sanitizer_to_json(const SanitizerReport& r) {
  json findings = json::array();
  for (auto& f : r.findings)
    findings.push_back({{"kind", f.kind}, {"kernel", f.kernel}, {"where", f.where}, {"address", f.address}, {"lines", f.lines}});
  return {{"tool", r.tool}, {"errors", r.errors()}, {"error_summary", r.error_summary}, {"clean", r.clean()},
          {"findings", findings}, {"tool_messages", r.tool_messages}};
}

RunOutcome run_ncu(const RunRequest& r) {
  RunOutcome o;
  fs::create_directories(r.out_dir);
  std::string stem = (fs::path(r.out_dir) / r.variant).string();
  std::string result_file = stem + ".oneshot.json";
  o.log_file = stem + ".ncu.log";
  o.doc = base_doc(r, "ncu");
  o.doc["preset"] = r.preset;
  // --nvtx-include "<range>/": a push/pop range (trailing slash) at the bottom of the thread's range
  // stack; only kernels launched inside it are profiled (checked on an H100 with ncu 2025.3.1: the
  // warm-up and post-range launches of the same kernel were not profiled).
  std::vector<std::string> argv = {r.tool_path, "--nvtx", "--nvtx-include", std::string(kNvtxRange) + "/",
                                   "--clock-control", r.clock_control, "--metrics", metric_list(r.preset),
                                   "--export", stem, "--force-overwrite"};
  auto worker = worker_args(r, result_file, r.warmup);
  argv.insert(argv.end(), worker.begin(), worker.end());
  o.doc["command"] = join_args(argv);
  ToolRun run = run_tool(argv, o.log_file, r.timeout_s, r.env);
  o.doc["one_shot"] = read_json_or_null(result_file);
  o.doc["files"] = {{"report", stem + ".ncu-rep"}, {"log", o.log_file}};
  auto fail = [&](const std::string& why) {
    o.error = why;
    o.doc["error"] = why;
    return o;
  };
  if (!run.error.empty()) return fail(run.error);
  if (run.timed_out) return fail(fmt::format("ncu did not finish within {:.0f} s (killed); log: {}", r.timeout_s, o.log_file));
  const json& shot = o.doc["one_shot"];
  if (run.exit_code != 0 || !fs::exists(stem + ".ncu-rep")) {
    std::string why = shot.is_object() && !shot.value("ok", false) ? shot.value("error", std::string()) : std::string();
    return fail(fmt::format("ncu exited with {}{}; log {}:\n{}", run.exit_code, why.empty() ? "" : " (the run: " + why + ")",
                            o.log_file, tail(run.output)));
  }
  // The raw page with every value in its base unit (ns, byte), as CSV.
  std::string csv_file = stem + ".csv";
  ToolRun imp = run_tool({r.tool_path, "--import", stem + ".ncu-rep", "--csv", "--page", "raw", "--print-units", "base"},
                         csv_file, 300);
  o.doc["files"]["csv"] = csv_file;
  if (imp.exit_code != 0) return fail(fmt::format("ncu --import failed ({}): {}", imp.exit_code, tail(imp.output)));
  NcuCsv parsed;
  try {
    parsed = parse_ncu_csv(imp.output);
  } catch (const std::exception& e) {
    return fail(fmt::format("{}: {}", csv_file, e.what()));
  }
  if (parsed.kernels.empty())
    return fail(fmt::format("ncu profiled no kernel inside the NVTX range '{}' (does run() launch any on this GPU?); "
                            "log: {}", kNvtxRange, o.log_file));
  o.doc["kernels"] = kernels_to_json(parsed.kernels);
  if (shot.is_object() && !shot.value("ok", false))
    return fail("the profiled run failed: " + shot.value("error", std::string("unknown error")));
  o.ok = true;
  return o;
}

RunOutcome run_sanitizer(const RunRequest& r) {
  RunOutcome o;
  fs::create_directories(r.out_dir);
  std::string stem = (fs::path(r.out_dir) / (r.variant + "." + r.sanitizer_tool)).string();
  std::string result_file = stem + ".oneshot.json";
  o.log_file = stem + ".log";
  o.doc = base_doc(r, "compute-sanitizer");
  o.doc["sanitizer_tool"] = r.sanitizer_tool;
  std::vector<std::string> argv = {r.tool_path, "--tool", r.sanitizer_tool, "--print-limit", "20"};
  // memcheck only sees an access outside every allocation: one element past a buffer can land in the
  // next cudaMalloc block. Padding after each allocation makes such a write hit memory nobody owns.
  if (r.sanitizer_tool == "memcheck") argv.insert(argv.end(), {"--padding", "256"});
  // One checked run, no warm-up: a sanitizer makes every run slow, and the first run is the one to check.
  auto worker = worker_args(r, result_file, 0);
  argv.insert(argv.end(), worker.begin(), worker.end());
  o.doc["command"] = join_args(argv);
  ToolRun run = run_tool(argv, o.log_file, r.timeout_s, r.env);
  o.doc["one_shot"] = read_json_or_null(result_file);
  o.doc["files"] = {{"log", o.log_file}};
  if (!run.error.empty() || run.timed_out) {
    o.error = run.timed_out ? fmt::format("compute-sanitizer did not finish within {:.0f} s (killed)", r.timeout_s) : run.error;
    o.doc["error"] = o.error;
    return o;
  }
  SanitizerReport rep = parse_sanitizer_output(run.output, r.sanitizer_tool);
  o.doc["sanitizer"] = sanitizer_to_json(rep);
  o.doc["exit_code"] = run.exit_code;
  if (rep.error_summary < 0) {
    // No summary line: the tool itself failed (unsupported device, bad option) rather than the program.
    o.error = fmt::format("compute-sanitizer --tool {} gave no ERROR SUMMARY (exit {}); log {}:\n{}", r.sanitizer_tool,
                          run.exit_code, o.log_file, tail(run.output));
    o.doc["error"] = o.error;
    return o;
  }
  o.ok = true;
  return o;
}

}  // namespace aisp::profile
