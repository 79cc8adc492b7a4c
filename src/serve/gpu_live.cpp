#include "serve/gpu_live.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace aisp::serve {
namespace {

// The few NVML entry points used, declared here (no NVML header is packaged; see runtime/nvml.hpp).
// Signatures and constants from NVML's public API: return 0 = NVML_SUCCESS, 7 = INSUFFICIENT_SIZE.
using nvmlReturn = int;
using nvmlDevice = void*;
constexpr nvmlReturn kSuccess = 0, kInsufficientSize = 7;
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;
struct Utilization {
  unsigned gpu, memory;
};
struct MemoryInfo {
  unsigned long long total, free, used;
};

struct Nvml {
  std::string error;
  nvmlReturn (*count)(unsigned*) = nullptr;
  nvmlReturn (*by_index)(unsigned, nvmlDevice*) = nullptr;
  nvmlReturn (*name)(nvmlDevice, char*, unsigned) = nullptr;
  nvmlReturn (*uuid)(nvmlDevice, char*, unsigned) = nullptr;
  nvmlReturn (*clock)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*max_clock)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*temperature)(nvmlDevice, int, unsigned*) = nullptr;
  nvmlReturn (*power)(nvmlDevice, unsigned*) = nullptr;
  nvmlReturn (*power_limit)(nvmlDevice, unsigned*) = nullptr;
  nvmlReturn (*utilization)(nvmlDevice, Utilization*) = nullptr;
  nvmlReturn (*memory)(nvmlDevice, MemoryInfo*) = nullptr;
  nvmlReturn (*reasons)(nvmlDevice, unsigned long long*) = nullptr;
  nvmlReturn (*procs)(nvmlDevice, unsigned*, void*) = nullptr;
  nvmlReturn (*driver)(char*, unsigned) = nullptr;
};

template <class F>
void load(void* lib, F& fn, const char* name) {
  if (!fn) fn = reinterpret_cast<F>(dlsym(lib, name));
}

Nvml& nvml() {
  static Nvml n;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      n.error = "no GPU: libnvidia-ml.so.1 (the NVIDIA driver's NVML) is not installed on this machine";
      return;
    }
    nvmlReturn (*init)() = nullptr;
    load(lib, init, "nvmlInit_v2");
    load(lib, n.count, "nvmlDeviceGetCount_v2");
    load(lib, n.by_index, "nvmlDeviceGetHandleByIndex_v2");
    if (!init || !n.count || !n.by_index) {
      n.error = "libnvidia-ml.so.1 lacks nvmlInit_v2 / nvmlDeviceGetCount_v2 / nvmlDeviceGetHandleByIndex_v2";
      n.count = nullptr;
      return;
    }
    if (nvmlReturn rc = init(); rc != kSuccess) {
      n.error = "no GPU: nvmlInit failed with NVML error " + std::to_string(rc) + " (driver not loaded?)";
      n.count = nullptr;
      return;
    }
    load(lib, n.name, "nvmlDeviceGetName");
    load(lib, n.uuid, "nvmlDeviceGetUUID");
    load(lib, n.clock, "nvmlDeviceGetClockInfo");
    load(lib, n.max_clock, "nvmlDeviceGetMaxClockInfo");
    load(lib, n.temperature, "nvmlDeviceGetTemperature");
    load(lib, n.power, "nvmlDeviceGetPowerUsage");
    load(lib, n.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    load(lib, n.utilization, "nvmlDeviceGetUtilizationRates");
    load(lib, n.memory, "nvmlDeviceGetMemoryInfo");
    // Newer drivers renamed "throttle reasons" to "clocks event reasons" (same bits).
    load(lib, n.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    load(lib, n.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    load(lib, n.procs, "nvmlDeviceGetComputeRunningProcesses_v3");
    load(lib, n.procs, "nvmlDeviceGetComputeRunningProcesses_v2");
    load(lib, n.driver, "nvmlSystemGetDriverVersion");
  });
  return n;
}

}  // namespace

nlohmann::json live_gpu_status() {
  using json = nlohmann::json;
  Nvml& n = nvml();
  if (!n.count) return {{"available", false}, {"reason", n.error}};
  unsigned count = 0;
  if (n.count(&count) != kSuccess || count == 0) return {{"available", false}, {"reason", "no GPU: NVML reports no devices"}};
  json gpus = json::array();
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice dev = nullptr;
    if (n.by_index(i, &dev) != kSuccess) continue;
    json g = {{"index", i}};
    char text[96] = {};
    if (n.name && n.name(dev, text, sizeof text) == kSuccess) g["name"] = text;
    if (n.uuid && n.uuid(dev, text, sizeof text) == kSuccess) g["uuid"] = text;
    unsigned v = 0;
    auto put = [&](const char* key, bool ok, double value) { g[key] = ok ? json(value) : json(nullptr); };
    put("sm_clock_mhz", n.clock && n.clock(dev, kClockSm, &v) == kSuccess, v);
    put("sm_clock_max_mhz", n.max_clock && n.max_clock(dev, kClockSm, &v) == kSuccess, v);
    put("mem_clock_mhz", n.clock && n.clock(dev, kClockMem, &v) == kSuccess, v);
    put("temperature_c", n.temperature && n.temperature(dev, kTemperatureGpu, &v) == kSuccess, v);
    put("power_w", n.power && n.power(dev, &v) == kSuccess, v / 1000.0);
    put("power_limit_w", n.power_limit && n.power_limit(dev, &v) == kSuccess, v / 1000.0);
    Utilization u{};
    bool u_ok = n.utilization && n.utilization(dev, &u) == kSuccess;
    put("utilization_gpu_pct", u_ok, u.gpu);
    put("utilization_mem_pct", u_ok, u.memory);
    MemoryInfo m{};
    bool m_ok = n.memory && n.memory(dev, &m) == kSuccess;
    put("memory_used_mb", m_ok, static_cast<double>(m.used) / (1 << 20));
    put("memory_total_mb", m_ok, static_cast<double>(m.total) / (1 << 20));
    unsigned long long reasons = 0;
    put("clocks_event_reasons", n.reasons && n.reasons(dev, &reasons) == kSuccess, static_cast<double>(reasons));
    // Asking with room for none returns the count (INSUFFICIENT_SIZE when there are any).
    unsigned procs = 0;
    nvmlReturn rc = n.procs ? n.procs(dev, &procs, nullptr) : -1;
    put("compute_processes", rc == kSuccess || rc == kInsufficientSize, procs);
    gpus.push_back(g);
  }
  char driver[96] = {};
  json out = {{"available", true}, {"gpus", gpus}};
  if (n.driver && n.driver(driver, sizeof driver) == kSuccess) out["driver_version"] = driver;
  return out;
}

}  // namespace aisp::serve
