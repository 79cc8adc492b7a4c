// `aisp info topology`: the GPU/NIC link matrix of `nvidia-smi topo -m` (parsed from its text, so it is
// tested on CPU with recorded text) and the host's NUMA nodes from sysfs.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace aisp {

struct TopologyMatrix {
  std::vector<std::string> devices;                                    // GPU0, GPU1, NIC0 ... in column order
  std::vector<std::vector<std::string>> links;                         // links[i][j]: X, NV18, PIX, PXB, PHB, NODE, SYS ...
  std::map<std::string, std::map<std::string, std::string>> affinity;  // device -> {"CPU Affinity": "0-55", ...}
  std::map<std::string, std::string> legend;     // link code -> meaning ("SYS" -> "Connection traversing ...")
  std::map<std::string, std::string> nic_names;  // NIC0 -> mlx5_0
};

// Throws std::runtime_error when `text` has no header row with device columns.
TopologyMatrix parse_nvidia_smi_topo(const std::string& text);
nlohmann::json to_json(const TopologyMatrix& t);

struct NumaNode {
  int id = 0;
  std::string cpus;          // "0-15" (cpulist)
  double mem_total_gib = 0;  // MemTotal of the node's meminfo
};
// /sys/devices/system/node (or a copy of it): node<N>/cpulist and node<N>/meminfo, ordered by id.
std::vector<NumaNode> numa_nodes(const std::filesystem::path& node_dir = "/sys/devices/system/node");

}  // namespace aisp
