#include "runtime/device.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cctype>

#include "aisp/check.hpp"
#include "runtime/nvml.hpp"

namespace aisp {

int cuda_device_count(std::string* why) {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = fmt::format("no usable CUDA device: {} ({})", cudaGetErrorName(err), cudaGetErrorString(err));
    cudaGetLastError();
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device visible";
  return n;
}

static std::string format_uuid(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += fmt::format("{:02x}", b[i]);
  }
  return s;
}

DeviceInfo query_device(int ordinal) {
  cudaDeviceProp p{};
  AISP_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.uuid = format_uuid(p.uuid);
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.global_memory_bytes = static_cast<int64_t>(p.totalGlobalMem);
  d.l2_bytes = p.l2CacheSize;
  d.max_shared_per_block_optin = static_cast<int64_t>(p.sharedMemPerBlockOptin);
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.warp_size = p.warpSize;
  d.memory_bus_width_bits = p.memoryBusWidth;
  // CUDA 13 dropped clockRate/memoryClockRate from cudaDeviceProp; the attributes still exist.
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ordinal) == cudaSuccess) d.sm_clock_max_mhz = khz / 1000.0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal) == cudaSuccess)
    d.mem_clock_max_mhz = khz / 1000.0;
  auto st = Nvml::instance().static_info(d.uuid);
  if (st.valid && st.sm_clock_max_mhz > 0) d.sm_clock_max_mhz = st.sm_clock_max_mhz;
  if (st.valid && st.mem_clock_max_mhz > 0) d.mem_clock_max_mhz = st.mem_clock_max_mhz;
  return d;
}

std::string hardware_key(const std::string& device_name, int visible_gpus) {
  std::string slug;
  for (char c : device_name) {
    if (std::isalnum(static_cast<unsigned char>(c))) slug += static_cast<char>(std::tolower(c));
    else if (!slug.empty() && slug.back() != '_') slug += '_';
  }
  while (!slug.empty() && slug.back() == '_') slug.pop_back();
  if (slug.rfind("nvidia_", 0) == 0) slug = slug.substr(7);
  return visible_gpus > 1 ? fmt::format("{}x_{}", visible_gpus, slug) : slug;
}

}  // namespace aisp
