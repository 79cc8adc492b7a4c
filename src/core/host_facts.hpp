// Facts about the host a benchmark runs on, read from /proc and /sys (and `git`), for the environment
// gate. Everything goes through HostReader so unit tests can feed fixture text instead of this machine's
// files. Absence is normal (VMs have no cpufreq, containers hide cgroup files): every reader returns
// "unknown" for what it cannot see and never throws.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aisp {

class HostReader {
 public:
  virtual ~HostReader() = default;
  // Whole file, or nullopt when it does not exist or cannot be read.
  virtual std::optional<std::string> read_file(const std::string& path) const = 0;
  // Entry names (not paths) in a directory; empty when it does not exist.
  virtual std::vector<std::string> list_dir(const std::string& path) const = 0;
  // A shell command's stdout when it exits 0, else nullopt.
  virtual std::optional<std::string> run(const std::string& command) const = 0;
};

// The real /proc, /sys and shell of this process.
const HostReader& real_host();

// Governor name -> number of CPUs using it; empty when no CPU exposes cpufreq (unknown, not a failure).
std::map<std::string, int> cpu_governors(const HostReader& host);

struct SwapFacts {
  bool known = false;  // /proc/meminfo readable
  int64_t total_kib = 0, free_kib = 0;
  int active_devices = 0;  // data lines of /proc/swaps
  int64_t used_kib() const { return total_kib - free_kib; }
};
SwapFacts swap_facts(const HostReader& host);

struct CgroupFacts {
  int version = 0;  // 1 or 2; 0 when /proc/self/cgroup is unreadable
  std::string path;  // this process's cgroup (of the cpu controller on v1)
  std::optional<double> cpu_quota_cpus;  // tightest quota along the path, in CPUs; nullopt = no quota
  std::optional<int64_t> memory_limit_bytes;  // tightest limit along the path; nullopt = unlimited
  std::string cpuset;  // effective CPU list, "" when unknown
  bool controllers_visible = false;  // some cgroup file was readable (else quota/limit are unknown)
};
CgroupFacts cgroup_facts(const HostReader& host);

struct NumaFacts {
  std::map<int, std::string> node_cpus;  // node id -> cpulist
  std::string allowed_cpus;              // Cpus_allowed_list of this process
  std::optional<int> gpu_node;           // NUMA node of the GPU's PCI device (-1 = none reported)
};
// `pci_bus_id` like "0000:65:00.0" (CUDA or NVML spelling); empty skips the GPU lookup.
NumaFacts numa_facts(const HostReader& host, const std::string& pci_bus_id);

struct VirtFacts {
  bool known = false;  // /proc/cpuinfo readable
  bool hypervisor = false;
  std::string product;  // DMI vendor/product when exposed (Firecracker exposes none)
};
VirtFacts virtualization_facts(const HostReader& host);

// "always", "madvise" or "never" (the bracketed choice); nullopt when not exposed.
std::optional<std::string> transparent_hugepages(const HostReader& host);

struct GitFacts {
  bool known = false;  // false outside a work tree or without git
  std::string commit;
  int modified = 0, untracked = 0;
  bool dirty() const { return modified + untracked > 0; }
};
// Of the current directory (where the benchmarks being timed usually live).
GitFacts git_facts(const HostReader& host);

}  // namespace aisp
