// K17: a result faster than the hardware can possibly go is a measurement fault or a cheat, never a win.
// Ceilings come from device properties (memory clock x bus width for DRAM; SM count x max SM clock x dense
// tensor-core FLOP per SM per clock for math), so they are upper bounds by construction; the measured
// peaks of `aisp hw` sit below them and are reported beside results, not used to invalidate.
#pragma once
#include <optional>
#include <string>

#include "aisp/device_info.hpp"
#include "aisp/workload.hpp"

namespace aisp {

struct Ceilings {
  double dram_bytes_per_s = 0;     // theoretical DRAM bandwidth
  double onchip_bytes_per_s = 0;   // generous bound for workloads that fit in L2
  double flops_per_s = 0;          // dense tensor-core peak for the workload's precision, at max SM clock
};

Ceilings device_ceilings(const DeviceInfo& device, DType precision);

// Margin above the ceiling before a result is called implausible (clock reporting, rounding).
inline constexpr double kPlausibilityMargin = 1.10;

// Why `median_ms` for `workload` is impossible on `device`, or nothing if it is plausible (or the
// workload declares no bytes/FLOPs, or the device facts are unknown).
std::optional<std::string> implausibility(const Workload& workload, double median_ms, const DeviceInfo& device);

}  // namespace aisp
