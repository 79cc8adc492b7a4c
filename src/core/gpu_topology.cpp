#include "core/gpu_topology.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace aisp {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, '\t');) out.push_back(trim(f));
  return out;
}

bool is_device(const std::string& s) { return std::regex_match(s, std::regex("(GPU|NIC)[0-9]+")); }

}  // namespace

TopologyMatrix parse_nvidia_smi_topo(const std::string& text) {
  TopologyMatrix t;
  std::vector<std::string> extra;  // the columns after the devices: CPU Affinity, NUMA Affinity, GPU NUMA ID
  std::stringstream in(text);
  bool in_legend = false;
  for (std::string line; std::getline(in, line);) {
    // nvidia-smi colours the header with ANSI escapes on a terminal; strip them.
    line = std::regex_replace(line, std::regex("\x1b\\[[0-9;]*m"), "");
    std::vector<std::string> f = split_tabs(line);
    if (t.devices.empty() && f.size() > 1 && f[0].empty() && is_device(f[1])) {
      for (size_t i = 1; i < f.size(); ++i) {
        if (f[i].empty()) continue;
        (is_device(f[i]) && extra.empty() ? t.devices : extra).push_back(f[i]);
      }
      continue;
    }
    if (!t.devices.empty() && !f.empty() && is_device(f[0]) && f.size() > t.devices.size()) {
      std::vector<std::string> row(f.begin() + 1, f.begin() + 1 + static_cast<long>(t.devices.size()));
      t.links.push_back(row);
      std::vector<std::string> rest;
      for (size_t i = 1 + t.devices.size(); i < f.size(); ++i)
        if (!f[i].empty()) rest.push_back(f[i]);
      for (size_t i = 0; i < rest.size() && i < extra.size(); ++i) t.affinity[f[0]][extra[i]] = rest[i];
      continue;
    }
    std::string s = trim(line);
    if (s.rfind("Legend", 0) == 0 || s.rfind("NIC Legend", 0) == 0) in_legend = true;
    static const std::regex code(R"(^\s*([A-Z#0-9]+)\s+=\s+(.+)$)"), nic(R"(^\s*(NIC[0-9]+):\s*(\S+)\s*$)");
    std::smatch m;
    if (in_legend && std::regex_match(line, m, nic)) t.nic_names[m[1]] = m[2];
    else if (in_legend && std::regex_match(line, m, code)) t.legend[m[1]] = trim(m[2]);
  }
  if (t.devices.empty()) throw std::runtime_error("no device header row (GPU0 ...) in the nvidia-smi topo -m text");
  return t;
}

nlohmann::json to_json(const TopologyMatrix& t) {
  nlohmann::json links = nlohmann::json::object();
  for (size_t i = 0; i < t.links.size() && i < t.devices.size(); ++i)
    for (size_t j = 0; j < t.links[i].size(); ++j) links[t.devices[i]][t.devices[j]] = t.links[i][j];
  return {{"devices", t.devices}, {"links", links}, {"affinity", t.affinity}, {"legend", t.legend}, {"nic_names", t.nic_names}};
}

std::vector<NumaNode> numa_nodes(const fs::path& node_dir) {
  std::vector<NumaNode> out;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(node_dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.rfind("node", 0) != 0 || n.size() < 5 || !std::all_of(n.begin() + 4, n.end(), ::isdigit)) continue;
    NumaNode node;
    node.id = std::stoi(n.substr(4));
    std::ifstream cpus(e.path() / "cpulist");
    std::getline(cpus, node.cpus);
    std::ifstream mem(e.path() / "meminfo");
    for (std::string line; std::getline(mem, line);)
      if (auto at = line.find("MemTotal:"); at != std::string::npos)
        node.mem_total_gib = std::stod(line.substr(at + 9)) / 1048576.0;
    out.push_back(node);
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.id < b.id; });
  return out;
}

}  // namespace aisp
