#include "core/environment_gate.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace aisp {
using json = nlohmann::json;

std::string to_string(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok: return "ok";
    case CheckStatus::warn: return "warn";
    case CheckStatus::fail: return "fail";
    case CheckStatus::unknown: return "unknown";
  }
  return "unknown";
}

std::string to_string(ValidityProfile p) { return p == ValidityProfile::strict ? "strict" : "portable"; }

ValidityProfile parse_validity_profile(const std::string& name) {
  if (name == "portable") return ValidityProfile::portable;
  if (name == "strict") return ValidityProfile::strict;
  throw std::invalid_argument("validity profile must be strict or portable, not '" + name + "'");
}

namespace {

using S = CheckStatus;

// An NVML integer fact: -1 (or absent) means NVML could not say.
int tri_state(const json& gpu, const char* key) {
  return gpu.contains(key) && gpu[key].is_number_integer() ? gpu[key].get<int>() : -1;
}

EnvCheck on_off_check(const json& gpu, const char* key, const char* name, const char* why_on) {
  int v = tri_state(gpu, key);
  if (v < 0) return {name, S::unknown, nullptr, "NVML did not report it"};
  if (v > 0) return {name, S::ok, "on", ""};
  return {name, S::warn, "off", why_on};
}

void gpu_checks(const json& info, std::vector<EnvCheck>& out) {
  const json gpus = info.value("gpus", json::array());
  if (gpus.empty()) {
    std::string why = info.value("error", std::string("no GPU facts"));
    out.push_back({"gpu", S::unknown, nullptr, "no GPU facts (" + why + "); GPU checks are unknown"});
    for (auto name : {"foreign_gpu_processes", "gpu_clocks_event_reasons", "gpu_ecc", "gpu_persistence_mode", "gpu_sm_clock"})
      out.push_back({name, S::unknown, nullptr, "no GPU"});
    return;
  }
  // The benchmarks run on the first visible GPU, so that is the one whose state matters.
  const json& g = gpus[0];
  out.push_back({"gpu", S::ok,
                 {{"name", g.value("name", "")}, {"uuid", g.value("uuid", "")}, {"visible_gpus", gpus.size()},
                  {"pci_bus_id", g.value("pci_bus_id", "")}},
                 ""});
  bool nvml = info.value("environment", json::object()).value("nvml", "") == "available";

  int procs = tri_state(g, "compute_processes");
  if (procs < 0) out.push_back({"foreign_gpu_processes", S::unknown, nullptr, "NVML did not report the process list"});
  else if (procs > 0)
    out.push_back({"foreign_gpu_processes", S::fail, procs,
                   fmt::format("{} other compute process(es) on the benchmark GPU: they share SMs and memory bandwidth", procs)});
  else out.push_back({"foreign_gpu_processes", S::ok, 0, ""});

  // Idle is what a GPU reports between runs; anything else (power cap, thermal, app clocks) at start
  // means the first samples may run at a lower clock than the rest.
  std::string reasons = g.value("clocks_event_reasons", "");
  if (!nvml || reasons.empty()) {
    out.push_back({"gpu_clocks_event_reasons", S::unknown, nullptr, "NVML not available"});
  } else {
    std::vector<std::string> bad;
    std::stringstream in(reasons);
    for (std::string r; std::getline(in, r, '|');)
      if (r != "idle" && r != "none") bad.push_back(r);
    if (bad.empty()) out.push_back({"gpu_clocks_event_reasons", S::ok, reasons, ""});
    else
      out.push_back({"gpu_clocks_event_reasons", S::warn, reasons,
                     fmt::format("clocks held down at start by {}", fmt::join(bad, ", "))});
  }
  out.push_back(on_off_check(g, "ecc_enabled", "gpu_ecc", "ECC off: results are not comparable with ECC-on machines"));
  out.push_back(on_off_check(g, "persistence_mode", "gpu_persistence_mode",
                             "persistence mode off: the driver may tear down and re-initialize the GPU between processes"));

  // Recorded only: an idle GPU drops its clock, and the harness warms it up before timing.
  double sm = g.value("sm_clock_mhz", 0.0), sm_max = g.value("sm_clock_max_mhz", 0.0);
  if (!nvml || sm <= 0) out.push_back({"gpu_sm_clock", S::unknown, nullptr, "NVML not available"});
  else
    out.push_back({"gpu_sm_clock", S::ok, {{"mhz", sm}, {"max_mhz", sm_max}},
                   sm < sm_max ? "below max at idle (expected; warm-up raises it)" : ""});
}

void host_checks(const HostReader& host, const json& info, std::vector<EnvCheck>& out) {
  auto governors = cpu_governors(host);
  if (governors.empty()) {
    out.push_back({"cpu_governor", S::unknown, nullptr, "no cpufreq in /sys (usual in VMs): governor not visible"});
  } else {
    json v = governors;
    bool all_perf = governors.size() == 1 && governors.count("performance");
    out.push_back({"cpu_governor", all_perf ? S::ok : S::warn, v,
                   all_perf ? "" : "CPU governor is not 'performance' everywhere: host-side latency varies"});
  }

  SwapFacts swap = swap_facts(host);
  if (!swap.known) out.push_back({"swap", S::unknown, nullptr, "/proc/meminfo not readable"});
  else {
    json v = {{"total_mib", swap.total_kib / 1024}, {"used_mib", swap.used_kib() / 1024}, {"devices", swap.active_devices}};
    if (swap.used_kib() > 0)
      out.push_back({"swap", S::warn, v, fmt::format("{} MiB of swap in use: page-ins stall the host", swap.used_kib() / 1024)});
    else
      out.push_back({"swap", S::ok, v, swap.total_kib > 0 ? "swap configured, none in use" : ""});
  }

  CgroupFacts cg = cgroup_facts(host);
  if (cg.version == 0 || !cg.controllers_visible) {
    std::string why = cg.version == 0 ? "/proc/self/cgroup not readable" : "cgroup controller files not visible";
    out.push_back({"cgroup_cpu_quota", S::unknown, nullptr, why});
    out.push_back({"cgroup_memory_limit", S::unknown, nullptr, why});
  } else {
    json where = {{"version", cg.version}, {"path", cg.path}, {"cpuset", cg.cpuset}};
    if (cg.cpu_quota_cpus) {
      where["cpus"] = *cg.cpu_quota_cpus;
      out.push_back({"cgroup_cpu_quota", S::warn, where,
                     fmt::format("CPU quota of {:.2f} CPUs: the supervisor and workers can be throttled", *cg.cpu_quota_cpus)});
    } else {
      where["cpus"] = "max";
      out.push_back({"cgroup_cpu_quota", S::ok, where, ""});
    }
    json mem = cg.memory_limit_bytes ? json(*cg.memory_limit_bytes / (1024 * 1024)) : json("max");
    out.push_back({"cgroup_memory_limit", S::ok, {{"mib", mem}},
                   cg.memory_limit_bytes ? "recorded: host memory is limited for this process" : ""});
  }

  std::string bus_id;
  if (!info.value("gpus", json::array()).empty()) bus_id = info["gpus"][0].value("pci_bus_id", "");
  NumaFacts numa = numa_facts(host, bus_id);
  if (numa.node_cpus.empty()) out.push_back({"numa", S::unknown, nullptr, "/sys/devices/system/node not visible"});
  else {
    json v = {{"nodes", numa.node_cpus.size()}, {"allowed_cpus", numa.allowed_cpus}};
    for (auto& [node, cpus] : numa.node_cpus) v["node_cpus"][std::to_string(node)] = cpus;
    if (numa.gpu_node) v["gpu_node"] = *numa.gpu_node;
    std::string detail = numa.node_cpus.size() > 1 && numa.gpu_node && *numa.gpu_node >= 0
                             ? fmt::format("GPU is on node {}; pin with numactl --cpunodebind={}", *numa.gpu_node, *numa.gpu_node)
                             : "";
    out.push_back({"numa", S::ok, v, detail});
  }

  // A VM adds exits, steal time and a virtual IOMMU: timings are valid here but not comparable with
  // bare metal. Never a failure (the project's GPU machines are VMs).
  VirtFacts virt = virtualization_facts(host);
  int gpu_virt = info.value("gpus", json::array()).empty() ? -1 : tri_state(info["gpus"][0], "virtualization_mode");
  bool vm = virt.hypervisor || info.value("environment", json::object()).value("virtualized", false) || gpu_virt > 0;
  json vv = {{"hypervisor_flag", virt.hypervisor}, {"gpu_virtualization_mode", gpu_virt}};
  if (!virt.product.empty()) vv["product"] = virt.product;
  if (!virt.known && gpu_virt < 0) out.push_back({"virtualization", S::unknown, nullptr, "/proc/cpuinfo not readable"});
  else if (vm) {
    static const char* kGpuModes[] = {"none", "GPU pass-through", "vGPU", "host vGPU", "host vSGA"};
    std::vector<std::string> signs;
    if (virt.hypervisor || info.value("environment", json::object()).value("virtualized", false)) signs.push_back("hypervisor CPU flag");
    if (gpu_virt > 0) signs.push_back(gpu_virt < 5 ? kGpuModes[gpu_virt] : "GPU virtualization mode " + std::to_string(gpu_virt));
    out.push_back({"virtualization", S::warn, vv,
                   fmt::format("virtual machine ({}): timings include virtualization effects", fmt::join(signs, ", "))});
  }
  else out.push_back({"virtualization", S::ok, vv, ""});

  auto thp = transparent_hugepages(host);
  out.push_back({"transparent_hugepages", thp ? S::ok : S::unknown, thp ? json(*thp) : json(nullptr),
                 thp ? "" : "not exposed"});
}

void provenance_checks(const HostReader& host, const json& info, const BuildFlags& build, std::vector<EnvCheck>& out) {
  GitFacts git = git_facts(host);
  if (!git.known) out.push_back({"git_worktree", S::unknown, nullptr, "current directory is not a git work tree (or no git)"});
  else {
    json v = {{"commit", git.commit}, {"modified", git.modified}, {"untracked", git.untracked}};
    if (git.dirty())
      out.push_back({"git_worktree", S::warn, v,
                     fmt::format("uncommitted changes ({} modified, {} untracked): the commit does not identify the code",
                                 git.modified, git.untracked)});
    else out.push_back({"git_worktree", S::ok, v, ""});
  }

  json versions = info.value("software", json::object());
  if (!info.value("gpus", json::array()).empty()) versions["driver_version"] = info["gpus"][0].value("driver_version", "");
  out.push_back({"versions", versions.empty() ? S::unknown : S::ok, versions, ""});

  bool debug = build.build_type == "Debug";
  out.push_back({"build", debug ? S::warn : S::ok,
                 {{"cuda_architectures", build.cuda_architectures}, {"build_type", build.build_type}},
                 debug ? "aisp built without optimization: host-side overheads and wall-clock checks are inflated" : ""});
}

}  // namespace

int EnvironmentReport::count(CheckStatus s) const {
  int n = 0;
  for (auto& c : checks) n += c.status == s;
  return n;
}

std::vector<const EnvCheck*> EnvironmentReport::with_status(CheckStatus s) const {
  std::vector<const EnvCheck*> out;
  for (auto& c : checks)
    if (c.status == s) out.push_back(&c);
  return out;
}

bool EnvironmentReport::refuses() const { return profile == ValidityProfile::strict && count(CheckStatus::fail) > 0; }

std::vector<std::string> EnvironmentReport::warning_lines() const {
  std::vector<std::string> lines;
  for (auto& c : checks) {
    if (c.status == S::warn) lines.push_back(fmt::format("environment: {}: {}", c.name, c.detail));
    if (c.status == S::fail)
      lines.push_back(fmt::format("environment: {} FAILED ({} profile: {}): {}", c.name, to_string(profile),
                                  refuses() ? "run refused" : "recorded as a warning, run continues", c.detail));
  }
  return lines;
}

std::string EnvironmentReport::summary_line() const {
  auto names = [&](CheckStatus s) {
    std::vector<std::string> n;
    for (auto* c : with_status(s)) n.push_back(c->name);
    return n.empty() ? std::string() : fmt::format(" ({})", fmt::join(n, ", "));
  };
  return fmt::format("environment: {} ok, {} warn{}, {} fail{}, {} unknown — profile {}", count(S::ok), count(S::warn),
                     names(S::warn), count(S::fail), names(S::fail), count(S::unknown), to_string(profile));
}

json EnvironmentReport::to_json() const {
  json list = json::array();
  for (auto& c : checks)
    list.push_back({{"name", c.name}, {"status", to_string(c.status)}, {"value", c.value}, {"detail", c.detail}});
  return {{"profile", to_string(profile)},
          {"decision", refuses() ? "refuse" : "run"},
          {"checks", list},
          {"summary", {{"ok", count(S::ok)}, {"warn", count(S::warn)}, {"fail", count(S::fail)}, {"unknown", count(S::unknown)}}}};
}

EnvironmentReport evaluate_environment(const HostReader& host, const json& system_info, const BuildFlags& build,
                                       ValidityProfile profile) {
  EnvironmentReport r;
  r.profile = profile;
  gpu_checks(system_info, r.checks);
  host_checks(host, system_info, r.checks);
  provenance_checks(host, system_info, build, r.checks);
  return r;
}

}  // namespace aisp
