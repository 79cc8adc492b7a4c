// NVML through dlopen("libnvidia-ml.so.1"): no header is packaged, and the binary must start on a machine
// without a driver (CI), so we declare the handful of functions we use and load them at run time.
#pragma once
#include <cstdint>
#include <string>

namespace aisp {

// Clocks-event ("throttle") reason bits, as NVML defines them.
namespace throttle {
inline constexpr uint64_t gpu_idle = 0x1, app_clocks = 0x2, sw_power_cap = 0x4, hw_slowdown = 0x8,
                          sync_boost = 0x10, sw_thermal = 0x20, hw_thermal = 0x40, hw_power_brake = 0x80;
// Reasons that mean the clock was pulled down by power or heat (idle and app-clock settings are not).
inline constexpr uint64_t slowdown_mask = sw_power_cap | hw_slowdown | sw_thermal | hw_thermal | hw_power_brake;
std::string describe(uint64_t reasons);
}  // namespace throttle

struct NvmlSample {
  bool valid = false;
  double sm_clock_mhz = 0, mem_clock_mhz = 0;
  uint64_t throttle_reasons = 0;
  double temperature_c = 0, power_w = 0;
  uint64_t energy_mj = 0;  // total energy counter since driver load (0 if unsupported)
};

struct NvmlStatic {
  bool valid = false;
  std::string driver_version;
  double sm_clock_max_mhz = 0, mem_clock_max_mhz = 0, power_limit_w = 0;
  int ecc_enabled = -1, persistence_mode = -1, virtualization_mode = -1;  // -1 = unknown
  int foreign_compute_processes = -1;
};

class Nvml {
 public:
  // Process-wide; loads the library on first use. available() is false without a driver.
  static Nvml& instance();
  bool available() const { return device_count_ >= 0; }
  const std::string& error() const { return error_; }
  // `uuid` as CUDA prints it ("GPU-xxxxxxxx-..."); NVML indices can differ from CUDA ordinals.
  NvmlSample sample(const std::string& uuid);
  // Only the SM clock and the clocks-event reasons: what every timed sample needs to be kept or discarded.
  // Each NVML query costs ~0.7 ms in the lent VMs (measured: six per sample were 4 ms of a 4.5 ms sample
  // loop), so temperature, power and energy are read per block instead (sample()).
  NvmlSample clocks(const std::string& uuid);
  NvmlStatic static_info(const std::string& uuid);

 private:
  Nvml();
  void* device_by_uuid(const std::string& uuid);
  int device_count_ = -1;
  std::string error_;
};

}  // namespace aisp
