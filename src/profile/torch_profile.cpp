#include "profile/torch_profile.hpp"

#include <fmt/format.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace aisp::profile {
using json = nlohmann::json;

namespace {

const json& need(const json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key)) throw std::runtime_error(fmt::format("torch ops document: no '{}'", key));
  return doc.at(key);
}

double number(const json& doc, const char* key) {
  const json& v = need(doc, key);
  if (!v.is_number()) throw std::runtime_error(fmt::format("torch ops document: '{}' is not a number", key));
  return v.get<double>();
}

std::string us_text(double us) {
  if (us >= 1e3) return fmt::format("{:.3f} ms", us / 1e3);
  return fmt::format("{:.1f} us", us);
}

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

TorchOps parse_torch_ops(const json& doc) {
  if (need(doc, "schema") != "aisp.torch_ops/1") throw std::runtime_error("torch ops document: schema is not aisp.torch_ops/1");
  TorchOps t;
  t.torch_version = need(doc, "torch_version").get<std::string>();
  t.trace = need(doc, "trace").get<std::string>();
  t.wall_ms = number(doc, "wall_ms");
  t.total_self_device_us = number(doc, "total_self_device_us");
  const json& ops = need(doc, "ops");
  if (!ops.is_array()) throw std::runtime_error("torch ops document: 'ops' is not a list");
  for (const json& o : ops) {
    TorchOp op;
    op.name = need(o, "name").get<std::string>();
    if (o.contains("kind")) {
      op.kind = o.at("kind").get<std::string>();
      if (op.kind != "gpu" && op.kind != "op") throw std::runtime_error("torch ops document: kind '" + op.kind + "'");
    }
    op.calls = static_cast<long long>(number(o, "calls"));
    op.self_device_us = number(o, "self_device_us");
    op.device_us = number(o, "device_us");
    op.self_cpu_us = number(o, "self_cpu_us");
    op.cpu_us = number(o, "cpu_us");
    t.ops.push_back(std::move(op));
  }
  return t;
}

json to_json(const TorchOp& op) {
  return {{"name", op.name},           {"kind", op.kind},
          {"calls", op.calls},         {"self_device_us", op.self_device_us},
          {"device_us", op.device_us}, {"self_cpu_us", op.self_cpu_us},
          {"cpu_us", op.cpu_us}};
}

std::string torch_ops_table(const TorchOps& t, int top, const std::string& indent) {
  constexpr size_t kName = 56;
  std::string out = fmt::format("{}{:<{}} {:<4} {:>6} {:>12} {:>6} {:>12} {:>12}\n", indent, "op (self CUDA time order)", kName,
                                "kind", "calls", "self CUDA", "%", "CUDA total", "self CPU");
  int shown = 0;
  for (const TorchOp& op : t.ops) {
    if (shown == top) break;
    std::string name = op.name.size() > kName ? op.name.substr(0, kName - 3) + "..." : op.name;
    double share = t.total_self_device_us > 0 ? 100.0 * op.self_device_us / t.total_self_device_us : 0.0;
    out += fmt::format("{}{:<{}} {:<4} {:>6} {:>12} {:>5.1f}% {:>12} {:>12}\n", indent, name, kName,
                       op.kind.empty() ? "-" : op.kind, op.calls, us_text(op.self_device_us), share, us_text(op.device_us),
                       us_text(op.self_cpu_us));
    ++shown;
  }
  if (static_cast<int>(t.ops.size()) > shown)
    out += fmt::format("{}({} more rows in the ops document)\n", indent, t.ops.size() - shown);
  out += fmt::format(
      "{}GPU time of the run (each kernel, memset and copy once): {}; an \"op\" row's self CUDA time is "
      "that of the \"gpu\" rows it launched\n",
      indent, us_text(t.total_self_device_us));
  return out;
}

std::string python_interpreter() {
  const char* p = std::getenv("AISP_PYTHON");
  return p && *p ? p : "python3";
}

std::string torch_import_problem(const std::string& python) {
  std::string cmd = quoted(python) + " -c 'import torch, torch.profiler' 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "cannot start " + python;
  std::string text;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) text.append(buf.data(), n);
  int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  size_t nl = text.rfind('\n');
  std::string last = nl == std::string::npos ? text : text.substr(nl + 1);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return python + " was not found";
  return last.empty() ? fmt::format("{} exited with status {}", python, status) : last;
}

}  // namespace aisp::profile
