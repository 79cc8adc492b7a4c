#include "core/plausibility.hpp"

#include <fmt/format.h>

namespace aisp {
namespace {

// Dense FLOP per SM per clock on Hopper's tensor cores (H100 SXM: 989 TFLOP/s BF16 = 132 SMs x 1.83 GHz
// x 4096). Blackwell doubles it; older parts are below these, so the table stays a ceiling for them.
double flop_per_sm_clock(DType p, int cc_major) {
  double f = 0;
  switch (p) {
    case DType::f64: f = 256; break;
    case DType::f32: case DType::tf32: f = 2048; break;
    case DType::f16: case DType::bf16: f = 4096; break;
    default: f = 8192; break;  // fp8 / int8 and anything not listed: the fastest path
  }
  return cc_major >= 10 ? 2 * f : f;
}

}  // namespace

Ceilings device_ceilings(const DeviceInfo& d, DType precision) {
  Ceilings c;
  // DDR: two transfers per memory clock.
  c.dram_bytes_per_s = 2.0 * d.mem_clock_max_mhz * 1e6 * d.memory_bus_width_bits / 8.0;
  c.onchip_bytes_per_s = 4.0 * c.dram_bytes_per_s;
  c.flops_per_s = flop_per_sm_clock(precision, d.cc_major) * d.sm_count * d.sm_clock_max_mhz * 1e6;
  return c;
}

std::optional<std::string> implausibility(const Workload& w, double median_ms, const DeviceInfo& d) {
  if (median_ms <= 0) return std::nullopt;
  Ceilings c = device_ceilings(d, w.precision);
  double s = median_ms / 1000.0;
  if (w.bytes > 0 && c.dram_bytes_per_s > 0) {
    bool fits_on_chip = d.l2_bytes > 0 && w.bytes <= static_cast<double>(d.l2_bytes);
    double ceiling = fits_on_chip ? c.onchip_bytes_per_s : c.dram_bytes_per_s;
    double achieved = w.bytes / s;
    if (achieved > ceiling * kPlausibilityMargin)
      return fmt::format("{:.1f} GB/s achieved ({:.3g} bytes in {:.4f} ms) is above the device's {} ceiling of {:.1f} GB/s",
                         achieved / 1e9, w.bytes, median_ms, fits_on_chip ? "on-chip (4x DRAM)" : "DRAM",
                         ceiling / 1e9);
  }
  if (w.flops > 0 && c.flops_per_s > 0) {
    double achieved = w.flops / s;
    if (achieved > c.flops_per_s * kPlausibilityMargin)
      return fmt::format("{:.1f} TFLOP/s achieved is above the device's dense {} peak of {:.1f} TFLOP/s",
                         achieved / 1e12, dtype_name(w.precision), c.flops_per_s / 1e12);
  }
  return std::nullopt;
}

}  // namespace aisp
