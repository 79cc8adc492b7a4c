#include "runtime/nvml.hpp"

#include <dlfcn.h>

#include <mutex>
#include <vector>

namespace aisp {
namespace {

using nvmlReturn = int;
using nvmlDevice = void*;
constexpr nvmlReturn kSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2;

struct Api {
  nvmlReturn (*init)() = nullptr;
  nvmlReturn (*device_count)(unsigned*) = nullptr;
  nvmlReturn (*by_uuid)(const char*, nvmlDevice*) = nullptr;
  nvmlReturn (*clock)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*max_clock)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*reasons)(nvmlDevice, unsigned long long*) = nullptr;
  nvmlReturn (*temperature)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*power)(nvmlDevice, unsigned*) = nullptr;
  nvmlReturn (*energy)(nvmlDevice, unsigned long long*) = nullptr;
  nvmlReturn (*power_limit)(nvmlDevice, unsigned*) = nullptr;
  nvmlReturn (*driver_version)(char*, unsigned) = nullptr;
  nvmlReturn (*ecc)(nvmlDevice, int*, int*) = nullptr;
  nvmlReturn (*persistence)(nvmlDevice, int*) = nullptr;
  nvmlReturn (*virtualization)(nvmlDevice, int*) = nullptr;
  nvmlReturn (*compute_procs)(nvmlDevice, unsigned*, void*) = nullptr;
};
Api api;

template <class F>
bool load(void* lib, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}

}  // namespace

std::string throttle::describe(uint64_t r) {
  static const std::pair<uint64_t, const char*> names[] = {
      {gpu_idle, "idle"}, {app_clocks, "app_clocks"}, {sw_power_cap, "sw_power_cap"},
      {hw_slowdown, "hw_slowdown"}, {sync_boost, "sync_boost"}, {sw_thermal, "sw_thermal"},
      {hw_thermal, "hw_thermal"}, {hw_power_brake, "hw_power_brake"}};
  std::string out;
  for (auto& [bit, name] : names)
    if (r & bit) out += (out.empty() ? "" : "|") + std::string(name);
  return out.empty() ? "none" : out;
}

Nvml& Nvml::instance() {
  static Nvml nvml;
  return nvml;
}

Nvml::Nvml() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    error_ = "libnvidia-ml.so.1 not found (no NVIDIA driver?)";
    return;
  }
  bool ok = load(lib, api.init, "nvmlInit_v2") && load(lib, api.device_count, "nvmlDeviceGetCount_v2") &&
            load(lib, api.by_uuid, "nvmlDeviceGetHandleByUUID") && load(lib, api.clock, "nvmlDeviceGetClockInfo") &&
            load(lib, api.max_clock, "nvmlDeviceGetMaxClockInfo") &&
            load(lib, api.temperature, "nvmlDeviceGetTemperature") &&
            load(lib, api.power, "nvmlDeviceGetPowerUsage") &&
            load(lib, api.driver_version, "nvmlSystemGetDriverVersion");
  if (!ok) {
    error_ = "libnvidia-ml.so.1 lacks required symbols";
    return;
  }
  // Newer drivers renamed "throttle reasons" to "clocks event reasons"; both have the same bits.
  if (!load(lib, api.reasons, "nvmlDeviceGetCurrentClocksEventReasons"))
    load(lib, api.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  load(lib, api.energy, "nvmlDeviceGetTotalEnergyConsumption");
  load(lib, api.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  load(lib, api.ecc, "nvmlDeviceGetEccMode");
  load(lib, api.persistence, "nvmlDeviceGetPersistenceMode");
  load(lib, api.virtualization, "nvmlDeviceGetVirtualizationMode");
  load(lib, api.compute_procs, "nvmlDeviceGetComputeRunningProcesses_v3");
  if (api.init() != kSuccess) {
    error_ = "nvmlInit failed";
    return;
  }
  unsigned n = 0;
  api.device_count(&n);
  device_count_ = static_cast<int>(n);
}

void* Nvml::device_by_uuid(const std::string& uuid) {
  if (!available()) return nullptr;
  static std::mutex mu;
  static std::vector<std::pair<std::string, nvmlDevice>> cache;
  std::lock_guard lock(mu);
  for (auto& [u, d] : cache)
    if (u == uuid) return d;
  nvmlDevice dev = nullptr;
  if (api.by_uuid(uuid.c_str(), &dev) != kSuccess) return nullptr;
  cache.emplace_back(uuid, dev);
  return dev;
}

NvmlSample Nvml::sample(const std::string& uuid) {
  NvmlSample s = clocks(uuid);
  nvmlDevice dev = s.valid ? device_by_uuid(uuid) : nullptr;
  if (!dev) return s;
  unsigned v = 0;
  if (api.clock(dev, kClockMem, &v) == kSuccess) s.mem_clock_mhz = v;
  if (api.temperature(dev, 0, &v) == kSuccess) s.temperature_c = v;
  if (api.power(dev, &v) == kSuccess) s.power_w = v / 1000.0;
  unsigned long long r = 0;
  if (api.energy && api.energy(dev, &r) == kSuccess) s.energy_mj = r;
  return s;
}

NvmlSample Nvml::clocks(const std::string& uuid) {
  NvmlSample s;
  nvmlDevice dev = device_by_uuid(uuid);
  if (!dev) return s;
  unsigned v = 0;
  if (api.clock(dev, kClockSm, &v) == kSuccess) s.sm_clock_mhz = v;
  unsigned long long r = 0;
  if (api.reasons && api.reasons(dev, &r) == kSuccess) s.throttle_reasons = r;
  s.valid = true;
  return s;
}

NvmlStatic Nvml::static_info(const std::string& uuid) {
  NvmlStatic s;
  nvmlDevice dev = device_by_uuid(uuid);
  if (!dev) return s;
  char buf[96] = {};
  if (api.driver_version(buf, sizeof buf) == kSuccess) s.driver_version = buf;
  unsigned v = 0;
  if (api.max_clock(dev, kClockSm, &v) == kSuccess) s.sm_clock_max_mhz = v;
  if (api.max_clock(dev, kClockMem, &v) == kSuccess) s.mem_clock_max_mhz = v;
  if (api.power_limit && api.power_limit(dev, &v) == kSuccess) s.power_limit_w = v / 1000.0;
  int cur = 0, pending = 0;
  if (api.ecc && api.ecc(dev, &cur, &pending) == kSuccess) s.ecc_enabled = cur;
  if (api.persistence && api.persistence(dev, &cur) == kSuccess) s.persistence_mode = cur;
  if (api.virtualization && api.virtualization(dev, &cur) == kSuccess) s.virtualization_mode = cur;
  if (api.compute_procs) {
    unsigned count = 0;
    // With a zero-sized buffer NVML answers "insufficient size" and the count; that is all we need.
    api.compute_procs(dev, &count, nullptr);
    s.foreign_compute_processes = static_cast<int>(count);
  }
  s.valid = true;
  return s;
}

}  // namespace aisp
