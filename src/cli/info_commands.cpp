#include "cli/info_commands.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>

#include "core/schema.hpp"
#include "runtime/device.hpp"
#include "runtime/nvml.hpp"

namespace aisp {
namespace {

bool cpu_has_hypervisor_flag() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) return line.find(" hypervisor") != std::string::npos;
  return false;
}

std::string kernel_release() {
  std::ifstream f("/proc/sys/kernel/osrelease");
  std::string s;
  std::getline(f, s);
  return s;
}

std::string version_string(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

}  // namespace

json collect_system_info() {
  json info;
  std::string why;
  int n = cuda_device_count(&why);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  int cublas_major = 0, cublas_minor = 0, cublas_patch = 0;
  cublasGetProperty(MAJOR_VERSION, &cublas_major);
  cublasGetProperty(MINOR_VERSION, &cublas_minor);
  cublasGetProperty(PATCH_LEVEL, &cublas_patch);
  info["software"] = {{"aisp_version", AISP_VERSION},
                      {"cuda_runtime_version", version_string(runtime)},
                      {"cuda_driver_api_version", version_string(driver)},
                      {"cublas_version", fmt::format("{}.{}.{}", cublas_major, cublas_minor, cublas_patch)},
                      {"compiler", __VERSION__},
                      {"kernel", kernel_release()}};
  bool vm = cpu_has_hypervisor_flag();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES");
  info["environment"] = {{"hostname", host},
                         {"virtualized", vm},
                         {"cuda_visible_devices", cvd ? json(cvd) : json(nullptr)},
                         {"nvml", Nvml::instance().available() ? "available" : Nvml::instance().error()}};
  info["gpus"] = json::array();
  info["warnings"] = json::array();
  if (vm) info["warnings"].push_back("running in a virtual machine (hypervisor CPU flag): timings include virtualization effects");
  if (n == 0) {
    info["error"] = why;
    return info;
  }
  for (int i = 0; i < n; ++i) {
    DeviceInfo d = query_device(i);
    json g = to_json(d);
    NvmlStatic st = Nvml::instance().static_info(d.uuid);
    NvmlSample now = Nvml::instance().sample(d.uuid);
    g["hardware_key"] = hardware_key(d.name);
    g["driver_version"] = st.driver_version;
    g["power_limit_w"] = st.power_limit_w;
    g["ecc_enabled"] = st.ecc_enabled;
    g["persistence_mode"] = st.persistence_mode;
    g["virtualization_mode"] = st.virtualization_mode;
    g["compute_processes"] = st.foreign_compute_processes;
    g["sm_clock_mhz"] = now.sm_clock_mhz;
    g["mem_clock_mhz"] = now.mem_clock_mhz;
    g["temperature_c"] = now.temperature_c;
    g["power_w"] = now.power_w;
    g["clocks_event_reasons"] = throttle::describe(now.throttle_reasons);
    // For the environment gate's NUMA check (/sys/bus/pci/devices/<id>/numa_node).
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, i) == cudaSuccess) g["pci_bus_id"] = bus_id;
    if (st.foreign_compute_processes > 0)
      info["warnings"].push_back(fmt::format("GPU {} has {} other compute process(es) running", i, st.foreign_compute_processes));
    info["gpus"].push_back(g);
  }
  auto& g0 = info["gpus"][0];
  info["hardware"] = {{"gpu_model", g0["name"]},          {"gpu_uuid", g0["uuid"]},
                      {"compute_capability", g0["compute_capability"]},
                      {"hardware_key", hardware_key(g0["name"].get<std::string>(), n)},
                      {"driver_version", g0["driver_version"]},
                      {"cuda_version", info["software"]["cuda_runtime_version"]},
                      {"gpu_clock_mhz", g0["sm_clock_mhz"]}, {"memory_clock_mhz", g0["mem_clock_mhz"]},
                      {"gpu_clock_max_mhz", g0["sm_clock_max_mhz"]}, {"memory_clock_max_mhz", g0["mem_clock_max_mhz"]},
                      {"ecc_enabled", g0["ecc_enabled"]}, {"persistence_mode", g0["persistence_mode"]},
                      {"power_limit_w", g0["power_limit_w"]}, {"temperature_gpu_c", g0["temperature_c"]},
                      {"gpu_count", n}};
  return info;
}

EnvironmentReport environment_gate(const json& system_info, ValidityProfile profile) {
  return evaluate_environment(real_host(), system_info, {AISP_BUILD_CUDA_ARCHS, AISP_BUILD_TYPE}, profile);
}

namespace {

// A check's value on one table line: strings as they are, anything else as compact JSON.
std::string value_text(const json& v) {
  std::string s = v.is_null() ? "-" : v.is_string() ? v.get<std::string>() : v.dump();
  return s.size() > 72 ? s.substr(0, 69) + "..." : s;
}

void print_environment_table(const EnvironmentReport& r) {
  std::cout << fmt::format("{:<8} {:<26} {}\n", "STATUS", "CHECK", "VALUE");
  for (auto& c : r.checks) {
    std::cout << fmt::format("{:<8} {:<26} {}\n", to_string(c.status), c.name, value_text(c.value));
    if (!c.detail.empty()) std::cout << fmt::format("{:<35} {}\n", "", c.detail);
  }
  std::cout << r.summary_line() << "\n";
}

}  // namespace

void add_info_commands(CLI::App& root) {
  auto* info = root.add_subcommand("info", "Facts about this machine: GPUs, driver, libraries");
  info->require_subcommand(1);
  auto* gpu = info->add_subcommand("gpu", "GPU properties, clocks, driver/CUDA/cuBLAS versions, virtualization");
  static bool as_json = false;
  gpu->add_flag("--json", as_json, "Print JSON");
  gpu->callback([] {
    json j = collect_system_info();
    if (as_json) {
      std::cout << j.dump(2) << "\n";
    } else if (j["gpus"].empty()) {
      std::cerr << "aisp: " << j.value("error", "no GPU") << "\n";
    } else {
      for (auto& g : j["gpus"])
        std::cout << fmt::format("GPU {}: {} (sm_{}{}, {} SMs, {:.1f} GiB, L2 {:.0f} MiB), {}\n  clocks SM {:.0f}/{:.0f} MHz, "
                                 "memory {:.0f}/{:.0f} MHz, {} °C, {:.0f} W of {:.0f} W, events: {}\n",
                                 g["ordinal"].get<int>(), g["name"].get<std::string>(), g["cc_major"].get<int>(),
                                 g["cc_minor"].get<int>(), g["sm_count"].get<int>(),
                                 g["global_memory_bytes"].get<double>() / 1073741824.0,
                                 g["l2_bytes"].get<double>() / 1048576.0, g["uuid"].get<std::string>(),
                                 g["sm_clock_mhz"].get<double>(), g["sm_clock_max_mhz"].get<double>(),
                                 g["mem_clock_mhz"].get<double>(), g["mem_clock_max_mhz"].get<double>(),
                                 g["temperature_c"].get<double>(), g["power_w"].get<double>(),
                                 g["power_limit_w"].get<double>(), g["clocks_event_reasons"].get<std::string>());
      auto& s = j["software"];
      std::cout << fmt::format("driver {}, CUDA runtime {}, cuBLAS {}\n", j["hardware"]["driver_version"].get<std::string>(),
                               s["cuda_runtime_version"].get<std::string>(), s["cublas_version"].get<std::string>());
      for (auto& w : j["warnings"]) std::cout << "warning: " << w.get<std::string>() << "\n";
    }
    if (j["gpus"].empty()) throw CLI::RuntimeError(2);
  });

  auto* env = info->add_subcommand(
      "env", "The environment gate bench run applies: GPU processes/clocks/ECC/persistence, CPU governor, swap, "
             "cgroups, NUMA, virtualization, git, versions");
  static bool env_json = false;
  static std::string env_profile = "portable";
  env->add_flag("--json", env_json, "Print JSON (the manifest's \"environment\" checks)");
  env->add_option("--validity-profile", env_profile, "strict: exit 3 when a check fails (what bench run would do)")
      ->check(CLI::IsMember({"strict", "portable"}))
      ->capture_default_str();
  env->callback([] {
    // Works without a GPU: the GPU checks then say unknown and the host checks still run.
    EnvironmentReport r = environment_gate(collect_system_info(), parse_validity_profile(env_profile));
    if (env_json) std::cout << r.to_json().dump(2) << "\n";
    else print_environment_table(r);
    if (r.refuses()) throw CLI::RuntimeError(3);
  });
}

}  // namespace aisp
