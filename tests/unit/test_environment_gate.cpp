// The environment gate's readers and rules on fixture text: no /proc, /sys, git or GPU of this machine.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/environment_gate.hpp"

namespace aisp {
namespace {

using json = nlohmann::json;

// A file system made of the files it was given (directories are implied by their paths) and a shell
// that knows a few commands.
class FakeHost final : public HostReader {
 public:
  std::map<std::string, std::string> files, commands;

  std::optional<std::string> read_file(const std::string& path) const override {
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional(it->second);
  }
  std::vector<std::string> list_dir(const std::string& path) const override {
    std::string dir = path.back() == '/' ? path : path + "/";
    std::set<std::string> names;
    for (auto& [p, _] : files)
      if (p.rfind(dir, 0) == 0) names.insert(p.substr(dir.size(), p.find('/', dir.size()) - dir.size()));
    return {names.begin(), names.end()};
  }
  std::optional<std::string> run(const std::string& command) const override {
    auto it = commands.find(command);
    return it == commands.end() ? std::nullopt : std::optional(it->second);
  }
};

// A quiet bare-metal host: performance governor, no swap, cgroup v2 without limits, clean git tree.
FakeHost quiet_host() {
  FakeHost h;
  h.files["/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"] = "performance\n";
  h.files["/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"] = "performance\n";
  h.files["/sys/devices/system/cpu/online"] = "0-1\n";
  h.files["/proc/meminfo"] = "MemTotal:       65536000 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n";
  h.files["/proc/swaps"] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
  h.files["/proc/self/cgroup"] = "0::/user.slice/bench.scope\n";
  h.files["/sys/fs/cgroup/user.slice/bench.scope/cpu.max"] = "max 100000\n";
  h.files["/sys/fs/cgroup/user.slice/bench.scope/memory.max"] = "max\n";
  h.files["/sys/fs/cgroup/user.slice/bench.scope/cpuset.cpus.effective"] = "0-1\n";
  h.files["/sys/devices/system/node/node0/cpulist"] = "0-1\n";
  h.files["/proc/self/status"] = "Name:\taisp\nCpus_allowed_list:\t0-1\n";
  h.files["/proc/cpuinfo"] = "processor\t: 0\nflags\t\t: fpu vme sse sse2 avx2\n";
  h.files["/sys/kernel/mm/transparent_hugepage/enabled"] = "always [madvise] never\n";
  h.commands["git rev-parse HEAD 2>/dev/null"] = "0123456789abcdef0123456789abcdef01234567\n";
  h.commands["git status --porcelain 2>/dev/null"] = "";
  return h;
}

// collect_system_info()'s JSON for one idle, healthy GPU.
json quiet_gpu() {
  json gpu = {{"name", "NVIDIA H100 80GB HBM3"}, {"uuid", "GPU-1234"}, {"compute_processes", 0},
              {"clocks_event_reasons", "idle"}, {"ecc_enabled", 1}, {"persistence_mode", 1},
              {"sm_clock_mhz", 345.0}, {"sm_clock_max_mhz", 1980.0}, {"virtualization_mode", 0},
              {"driver_version", "580.159.04"}, {"pci_bus_id", "00000000:65:00.0"}};
  return {{"gpus", json::array({gpu})},
          {"environment", {{"virtualized", false}, {"nvml", "available"}}},
          {"software", {{"cuda_runtime_version", "13.0"}}}};
}

const BuildFlags kBuild{"90a", "Release"};

const EnvCheck& find(const EnvironmentReport& r, const std::string& name) {
  for (auto& c : r.checks)
    if (c.name == name) return c;
  throw std::runtime_error("no check named " + name);
}

CheckStatus status_of(const FakeHost& h, const json& info, const std::string& name) {
  return find(evaluate_environment(h, info, kBuild, ValidityProfile::portable), name).status;
}

TEST(EnvironmentGate, QuietHostPassesEverything) {
  FakeHost h = quiet_host();
  h.files["/sys/bus/pci/devices/0000:65:00.0/numa_node"] = "0\n";
  auto r = evaluate_environment(h, quiet_gpu(), kBuild, ValidityProfile::strict);
  for (auto& c : r.checks) EXPECT_EQ(c.status, CheckStatus::ok) << c.name << ": " << c.detail;
  EXPECT_FALSE(r.refuses());
  EXPECT_EQ(find(r, "numa").value["gpu_node"], 0);  // NVML's 8-digit domain mapped to sysfs's 4 digits
  EXPECT_EQ(find(r, "git_worktree").value["commit"], "0123456789abcdef0123456789abcdef01234567");
  EXPECT_TRUE(r.warning_lines().empty());
}

TEST(EnvironmentGate, SwapInUseWarns) {
  FakeHost h = quiet_host();
  h.files["/proc/meminfo"] = "MemTotal:       65536000 kB\nSwapTotal:       8388604 kB\nSwapFree:        7340028 kB\n";
  h.files["/proc/swaps"] += "/dev/sda2                               partition\t8388604\t\t1048576\t\t-2\n";
  auto r = evaluate_environment(h, quiet_gpu(), kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(r, "swap").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "swap").value["used_mib"], 1024);
  EXPECT_EQ(find(r, "swap").value["devices"], 1);
}

TEST(EnvironmentGate, SwapConfiguredButUnusedIsOk) {
  FakeHost h = quiet_host();
  h.files["/proc/meminfo"] = "SwapTotal:       8388604 kB\nSwapFree:        8388604 kB\n";
  EXPECT_EQ(status_of(h, quiet_gpu(), "swap"), CheckStatus::ok);
}

TEST(EnvironmentGate, CgroupV2CpuQuotaWarnsAndMemoryLimitIsRecorded) {
  FakeHost h = quiet_host();
  h.files["/sys/fs/cgroup/user.slice/bench.scope/cpu.max"] = "50000 100000\n";
  h.files["/sys/fs/cgroup/user.slice/memory.max"] = "17179869184\n";  // an ancestor's limit applies too
  auto r = evaluate_environment(h, quiet_gpu(), kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(r, "cgroup_cpu_quota").status, CheckStatus::warn);
  EXPECT_DOUBLE_EQ(find(r, "cgroup_cpu_quota").value["cpus"].get<double>(), 0.5);
  EXPECT_EQ(find(r, "cgroup_memory_limit").status, CheckStatus::ok);
  EXPECT_EQ(find(r, "cgroup_memory_limit").value["mib"], 16384);
}

TEST(EnvironmentGate, CgroupV1QuotaAndUnlimitedMemory) {
  FakeHost h = quiet_host();
  h.files["/proc/self/cgroup"] = "4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n";
  // Inside the container only the mount root exists (the path is the host's).
  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"] = "200000\n";
  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us"] = "100000\n";
  h.files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "9223372036854771712\n";
  auto cg = cgroup_facts(h);
  EXPECT_EQ(cg.version, 1);
  ASSERT_TRUE(cg.cpu_quota_cpus.has_value());
  EXPECT_DOUBLE_EQ(*cg.cpu_quota_cpus, 2.0);
  EXPECT_FALSE(cg.memory_limit_bytes.has_value());
  EXPECT_EQ(status_of(h, quiet_gpu(), "cgroup_cpu_quota"), CheckStatus::warn);
}

TEST(EnvironmentGate, CgroupV1WithoutQuotaIsOk) {
  FakeHost h = quiet_host();
  h.files["/proc/self/cgroup"] = "2:cpu:/\n0::/\n";
  h.files["/sys/fs/cgroup/cpu/cpu.cfs_quota_us"] = "-1\n";
  EXPECT_EQ(status_of(h, quiet_gpu(), "cgroup_cpu_quota"), CheckStatus::ok);
}

TEST(EnvironmentGate, PowersaveGovernorWarns) {
  FakeHost h = quiet_host();
  h.files["/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"] = "powersave\n";
  auto r = evaluate_environment(h, quiet_gpu(), kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(r, "cpu_governor").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "cpu_governor").value["powersave"], 1);
  EXPECT_EQ(find(r, "cpu_governor").value["performance"], 1);
}

TEST(EnvironmentGate, MissingCpufreqIsUnknownNotAFailure) {
  FakeHost h = quiet_host();
  h.files.erase("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  h.files.erase("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor");
  auto r = evaluate_environment(h, quiet_gpu(), kBuild, ValidityProfile::strict);
  EXPECT_EQ(find(r, "cpu_governor").status, CheckStatus::unknown);
  EXPECT_FALSE(r.refuses());
}

TEST(EnvironmentGate, ForeignGpuProcessesFailAndStrictRefuses) {
  FakeHost h = quiet_host();
  json info = quiet_gpu();
  info["gpus"][0]["compute_processes"] = 2;
  auto portable = evaluate_environment(h, info, kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(portable, "foreign_gpu_processes").status, CheckStatus::fail);
  EXPECT_FALSE(portable.refuses());  // recorded, the run goes on
  ASSERT_EQ(portable.warning_lines().size(), 1u);
  EXPECT_NE(portable.warning_lines()[0].find("recorded as a warning"), std::string::npos);
  EXPECT_EQ(portable.to_json()["decision"], "run");
  EXPECT_EQ(portable.to_json()["summary"]["fail"], 1);

  auto strict = evaluate_environment(h, info, kBuild, ValidityProfile::strict);
  EXPECT_TRUE(strict.refuses());
  EXPECT_EQ(strict.to_json()["decision"], "refuse");
  EXPECT_NE(strict.summary_line().find("1 fail (foreign_gpu_processes)"), std::string::npos);
}

TEST(EnvironmentGate, WarningsNeverRefuseEvenWhenStrict) {
  FakeHost h = quiet_host();
  h.files["/proc/cpuinfo"] = "flags\t\t: fpu sse2 hypervisor avx2\n";
  h.commands["git status --porcelain 2>/dev/null"] = " M src/a.cpp\n?? notes.txt\n";
  json info = quiet_gpu();
  info["gpus"][0]["ecc_enabled"] = 0;
  info["gpus"][0]["persistence_mode"] = 0;
  info["gpus"][0]["clocks_event_reasons"] = "idle|sw_thermal";
  auto r = evaluate_environment(h, info, kBuild, ValidityProfile::strict);
  EXPECT_EQ(find(r, "virtualization").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "git_worktree").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "git_worktree").value["modified"], 1);
  EXPECT_EQ(find(r, "git_worktree").value["untracked"], 1);
  EXPECT_EQ(find(r, "gpu_ecc").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "gpu_persistence_mode").status, CheckStatus::warn);
  EXPECT_EQ(find(r, "gpu_clocks_event_reasons").status, CheckStatus::warn);
  EXPECT_EQ(r.count(CheckStatus::warn), 5);
  EXPECT_EQ(r.warning_lines().size(), 5u);
  EXPECT_FALSE(r.refuses());
}

TEST(EnvironmentGate, IdleClockBelowMaxIsOk) {
  json info = quiet_gpu();
  info["gpus"][0]["clocks_event_reasons"] = "none";
  auto r = evaluate_environment(quiet_host(), info, kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(r, "gpu_clocks_event_reasons").status, CheckStatus::ok);
  EXPECT_EQ(find(r, "gpu_sm_clock").status, CheckStatus::ok);
  EXPECT_EQ(find(r, "gpu_sm_clock").value["mhz"], 345.0);
}

TEST(EnvironmentGate, NoGpuMakesGpuChecksUnknown) {
  json info = {{"gpus", json::array()}, {"error", "no usable CUDA device"}, {"environment", {{"nvml", "not found"}}}};
  auto r = evaluate_environment(quiet_host(), info, kBuild, ValidityProfile::strict);
  for (auto name : {"gpu", "foreign_gpu_processes", "gpu_clocks_event_reasons", "gpu_ecc", "gpu_persistence_mode", "gpu_sm_clock"})
    EXPECT_EQ(find(r, name).status, CheckStatus::unknown) << name;
  EXPECT_NE(find(r, "gpu").detail.find("no usable CUDA device"), std::string::npos);
  EXPECT_FALSE(r.refuses());
}

TEST(EnvironmentGate, NvmlUnavailableMeansUnknownNotOk) {
  json info = quiet_gpu();
  info["environment"]["nvml"] = "libnvidia-ml.so.1 not found";
  info["gpus"][0]["compute_processes"] = -1;
  info["gpus"][0]["ecc_enabled"] = -1;
  auto r = evaluate_environment(quiet_host(), info, kBuild, ValidityProfile::portable);
  EXPECT_EQ(find(r, "foreign_gpu_processes").status, CheckStatus::unknown);
  EXPECT_EQ(find(r, "gpu_clocks_event_reasons").status, CheckStatus::unknown);
  EXPECT_EQ(find(r, "gpu_ecc").status, CheckStatus::unknown);
}

TEST(EnvironmentGate, NoGitIsUnknown) {
  FakeHost h = quiet_host();
  h.commands.clear();
  EXPECT_EQ(status_of(h, quiet_gpu(), "git_worktree"), CheckStatus::unknown);
}

TEST(EnvironmentGate, ProfileNames) {
  EXPECT_EQ(parse_validity_profile("strict"), ValidityProfile::strict);
  EXPECT_EQ(parse_validity_profile("portable"), ValidityProfile::portable);
  EXPECT_THROW(parse_validity_profile("lenient"), std::invalid_argument);
}

}  // namespace
}  // namespace aisp
