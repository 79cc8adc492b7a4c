// Device discovery: properties read from the device (never hard-coded), plus the UUID NVML needs.
#pragma once
#include <string>
#include <vector>

#include "aisp/device_info.hpp"

namespace aisp {

// Number of CUDA devices; 0 with `why` filled when there is no usable GPU/driver (never throws).
int cuda_device_count(std::string* why = nullptr);
DeviceInfo query_device(int ordinal);
// "h100_80gb_hbm3", "h200": the device name slugged, "nvidia_" dropped (the seed's expectation key).
std::string hardware_key(const std::string& device_name, int visible_gpus = 1);

}  // namespace aisp
