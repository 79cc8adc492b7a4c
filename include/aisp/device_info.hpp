// What a benchmark may know about the device it runs on (read from the device, never hard-coded).
#pragma once
#include <cstdint>
#include <string>

namespace aisp {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string uuid;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int64_t global_memory_bytes = 0;
  int64_t l2_bytes = 0;
  int64_t max_shared_per_block_optin = 0;
  int max_threads_per_sm = 0;
  int regs_per_sm = 0;
  int warp_size = 32;
  int memory_bus_width_bits = 0;
  double sm_clock_max_mhz = 0, mem_clock_max_mhz = 0;
};

}  // namespace aisp
