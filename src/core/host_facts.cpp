#include "core/host_facts.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace aisp {
namespace {

class RealHost final : public HostReader {
 public:
  std::optional<std::string> read_file(const std::string& path) const override {
    // /proc and /sys files report size 0, so read until EOF instead of by size.
    std::ifstream f(path, std::ios::binary);
    if (!f) return std::nullopt;
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) return std::nullopt;
    return s;
  }
  std::vector<std::string> list_dir(const std::string& path) const override {
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::optional<std::string> run(const std::string& command) const override {
    FILE* p = popen(command.c_str(), "r");
    if (!p) return std::nullopt;
    std::string out;
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return std::nullopt;
    return out;
  }
};

std::string trim(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// "cpu12" -> true, "cpufreq" -> false.
bool numbered(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + prefix.size(), name.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::optional<int64_t> parse_int(const std::string& s) {
  try {
    return static_cast<int64_t>(std::stoll(trim(s)));  // stops at a trailing unit ("123 kB")
  } catch (...) {
    return std::nullopt;
  }
}

// "/a/b" -> {"/a/b", "/a", ""}: limits of every ancestor cgroup apply, and inside a container whose
// cgroup path is the host's, only the mount root ("") exists.
std::vector<std::string> cgroup_ancestors(std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path != "/") {
    out.push_back(path);
    path = path.substr(0, path.rfind('/'));
  }
  out.push_back("");
  return out;
}

struct CgroupLine {
  std::vector<std::string> controllers;
  std::string path;
};

}  // namespace

const HostReader& real_host() {
  static RealHost host;
  return host;
}

std::map<std::string, int> cpu_governors(const HostReader& host) {
  std::map<std::string, int> counts;
  const std::string root = "/sys/devices/system/cpu/";
  for (auto& name : host.list_dir(root)) {
    if (!numbered(name, "cpu")) continue;
    if (auto g = host.read_file(root + name + "/cpufreq/scaling_governor")) ++counts[trim(*g)];
  }
  return counts;
}

SwapFacts swap_facts(const HostReader& host) {
  SwapFacts s;
  auto meminfo = host.read_file("/proc/meminfo");
  if (!meminfo) return s;
  s.known = true;
  for (auto& line : lines_of(*meminfo)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    auto v = parse_int(line.substr(colon + 1));  // "  123 kB": stoll stops at the unit
    if (key == "SwapTotal" && v) s.total_kib = *v;
    if (key == "SwapFree" && v) s.free_kib = *v;
  }
  if (auto swaps = host.read_file("/proc/swaps")) {
    auto lines = lines_of(*swaps);
    for (size_t i = 1; i < lines.size(); ++i)  // line 0 is the header
      if (!trim(lines[i]).empty()) ++s.active_devices;
  }
  return s;
}

CgroupFacts cgroup_facts(const HostReader& host) {
  CgroupFacts f;
  auto text = host.read_file("/proc/self/cgroup");
  if (!text) return f;
  // Lines are "id:controllers:path"; v2 has one "0::path" line; hybrid hosts list v1 controllers too,
  // and a v1 line for a controller wins because that is where its limits live.
  std::optional<CgroupLine> unified;
  std::map<std::string, CgroupLine> v1;  // controller -> its line
  for (auto& line : lines_of(*text)) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    CgroupLine l;
    l.path = line.substr(b + 1);
    std::stringstream cs(line.substr(a + 1, b - a - 1));
    for (std::string c; std::getline(cs, c, ',');) l.controllers.push_back(c);
    if (l.controllers.empty()) unified = l;
    for (auto& c : l.controllers) v1[c] = l;
  }
  f.version = v1.count("cpu") ? 1 : unified ? 2 : 0;
  if (f.version == 0) return f;

  // Directories to try for a controller, innermost first.
  auto dirs_for = [&](const std::string& controller) {
    std::vector<std::string> dirs;
    std::string base;
    std::string path;
    if (auto it = v1.find(controller); it != v1.end()) {
      std::string joined;
      for (auto& c : it->second.controllers) joined += (joined.empty() ? "" : ",") + c;
      base = "/sys/fs/cgroup/" + (host.list_dir("/sys/fs/cgroup/" + joined).empty() ? controller : joined);
      path = it->second.path;
    } else if (unified) {
      base = "/sys/fs/cgroup";
      path = unified->path;
    } else {
      return dirs;
    }
    for (auto& p : cgroup_ancestors(path)) dirs.push_back(base + p);
    return dirs;
  };
  f.path = v1.count("cpu") ? v1["cpu"].path : unified ? unified->path : "";
  bool cpu_v1 = v1.count("cpu") > 0, mem_v1 = v1.count("memory") > 0, set_v1 = v1.count("cpuset") > 0;

  for (auto& dir : dirs_for("cpu")) {
    std::optional<double> quota;
    if (cpu_v1) {
      auto q = host.read_file(dir + "/cpu.cfs_quota_us");
      if (!q) continue;
      f.controllers_visible = true;
      auto us = parse_int(*q);
      auto period = parse_int(host.read_file(dir + "/cpu.cfs_period_us").value_or("100000"));
      if (us && *us > 0 && period && *period > 0) quota = double(*us) / double(*period);
    } else {
      auto m = host.read_file(dir + "/cpu.max");  // "max 100000" or "<quota> <period>"
      if (!m) continue;
      f.controllers_visible = true;
      std::istringstream in(*m);
      std::string q, p;
      in >> q >> p;
      auto us = parse_int(q), period = parse_int(p);
      if (q != "max" && us && period && *period > 0) quota = double(*us) / double(*period);
    }
    if (quota && (!f.cpu_quota_cpus || *quota < *f.cpu_quota_cpus)) f.cpu_quota_cpus = quota;
  }
  for (auto& dir : dirs_for("memory")) {
    auto m = host.read_file(dir + (mem_v1 ? "/memory.limit_in_bytes" : "/memory.max"));
    if (!m) continue;
    f.controllers_visible = true;
    auto bytes = parse_int(*m);
    // v1 spells "unlimited" as LONG_MAX rounded down to a page; anything near it is no limit.
    if (trim(*m) == "max" || !bytes || *bytes >= (int64_t{1} << 62)) continue;
    if (!f.memory_limit_bytes || *bytes < *f.memory_limit_bytes) f.memory_limit_bytes = bytes;
  }
  for (auto& dir : dirs_for("cpuset")) {
    auto c = host.read_file(dir + (set_v1 ? "/cpuset.effective_cpus" : "/cpuset.cpus.effective"));
    if (!c && set_v1) c = host.read_file(dir + "/cpuset.cpus");
    if (c && !trim(*c).empty()) {
      f.controllers_visible = true;
      f.cpuset = trim(*c);
      break;  // innermost wins: effective lists already include the ancestors' restrictions
    }
  }
  return f;
}

NumaFacts numa_facts(const HostReader& host, const std::string& pci_bus_id) {
  NumaFacts n;
  const std::string root = "/sys/devices/system/node/";
  for (auto& name : host.list_dir(root))
    if (numbered(name, "node")) n.node_cpus[std::stoi(name.substr(4))] = trim(host.read_file(root + name + "/cpulist").value_or(""));
  for (auto& line : lines_of(host.read_file("/proc/self/status").value_or("")))
    if (line.rfind("Cpus_allowed_list:", 0) == 0) n.allowed_cpus = trim(line.substr(18));
  if (!pci_bus_id.empty()) {
    // sysfs spells it "0000:65:00.0" in lower case; NVML uses an 8-digit domain ("00000000:65:00.0").
    std::string id = pci_bus_id;
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
    if (auto colon = id.find(':'); colon == 8) id = id.substr(4);
    if (auto v = host.read_file("/sys/bus/pci/devices/" + id + "/numa_node"))
      if (auto node = parse_int(*v)) n.gpu_node = static_cast<int>(*node);
  }
  return n;
}

VirtFacts virtualization_facts(const HostReader& host) {
  VirtFacts v;
  auto cpuinfo = host.read_file("/proc/cpuinfo");
  if (!cpuinfo) return v;
  v.known = true;
  for (auto& line : lines_of(*cpuinfo)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream in(line.substr(line.find(':') == std::string::npos ? 0 : line.find(':') + 1));
    for (std::string flag; in >> flag;) v.hypervisor |= flag == "hypervisor";
    break;
  }
  std::string vendor = trim(host.read_file("/sys/class/dmi/id/sys_vendor").value_or(""));
  std::string product = trim(host.read_file("/sys/class/dmi/id/product_name").value_or(""));
  v.product = trim(vendor + " " + product);
  return v;
}

std::optional<std::string> transparent_hugepages(const HostReader& host) {
  auto text = host.read_file("/sys/kernel/mm/transparent_hugepage/enabled");  // "always [madvise] never"
  if (!text) return std::nullopt;
  auto a = text->find('['), b = text->find(']');
  if (a == std::string::npos || b == std::string::npos || b < a) return trim(*text);
  return text->substr(a + 1, b - a - 1);
}

GitFacts git_facts(const HostReader& host) {
  GitFacts g;
  auto commit = host.run("git rev-parse HEAD 2>/dev/null");
  auto status = host.run("git status --porcelain 2>/dev/null");
  if (!commit || !status || trim(*commit).empty()) return g;
  g.known = true;
  g.commit = trim(*commit);
  for (auto& line : lines_of(*status)) {
    if (line.empty()) continue;
    if (line.rfind("??", 0) == 0) ++g.untracked;
    else ++g.modified;
  }
  return g;
}

}  // namespace aisp
