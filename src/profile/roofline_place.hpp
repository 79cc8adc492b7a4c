// A kernel on the measured roofline: achieved DRAM bandwidth and FLOP rate from ncu counters (DRAM bytes
// read + written, thread-level FP instructions), against ceilings the caller takes from
// hardware_capabilities_<hwkey>.json via analysis::roofline_ceilings (measured by `aisp hw`), so this
// file stays free of where the ceilings come from.
#pragma once
#include <string>

#include "profile/ncu_csv.hpp"

namespace aisp::profile {

struct RooflinePoint {
  std::string kernel;
  double seconds = kNaN, dram_bytes = kNaN, flops = kNaN;
  std::string precision;        // the FP precision with the most FLOPs ("" when none were counted)
  double intensity = kNaN;      // FLOP per DRAM byte
  double bytes_per_s = kNaN, flops_per_s = kNaN;
  double peak_bytes_per_s = kNaN, peak_flops_per_s = kNaN, ridge = kNaN;
  std::string bound;            // memory | compute | "" (unknown)
  double pct_of_roof = kNaN;    // achieved / the roof that bounds it at this intensity, in %
  std::string note;             // what was missing, or what the numbers do not include
};

// FLOPs counted from the SASS FP counters of the roofline preset, and their dominant precision.
double counted_flops(const KernelProfile& k, std::string* precision = nullptr);

RooflinePoint place_on_roofline(const KernelProfile& k, double peak_bytes_per_s, double peak_flops_per_s);

}  // namespace aisp::profile
