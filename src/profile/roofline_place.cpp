#include "profile/roofline_place.hpp"

#include <fmt/format.h>

#include <map>

#include "profile/metrics_catalog.hpp"

namespace aisp::profile {

double counted_flops(const KernelProfile& k, std::string* precision) {
  std::map<std::string, double> by;
  bool any = false;
  for (auto& c : flop_counters()) {
    double v = k.get(c.metric);
    if (!std::isfinite(v)) continue;
    any = true;
    by[c.precision] += v * c.flops_per_inst;
  }
  double total = 0, best = 0;
  for (auto& [p, v] : by) {
    total += v;
    if (v > best && precision) best = v, *precision = p;
  }
  return any ? total : kNaN;
}

RooflinePoint place_on_roofline(const KernelProfile& k, double peak_bw, double peak_fl) {
  RooflinePoint p;
  p.kernel = k.short_name();
  p.seconds = k.get(m::duration) * 1e-9;
  double rd = k.get(m::dram_read), wr = k.get(m::dram_write);
  p.dram_bytes = std::isfinite(rd) && std::isfinite(wr) ? rd + wr : kNaN;
  p.flops = counted_flops(k, &p.precision);
  p.peak_bytes_per_s = peak_bw;
  p.peak_flops_per_s = peak_fl;
  if (!std::isfinite(p.seconds) || p.seconds <= 0 || !std::isfinite(p.dram_bytes)) {
    p.note = "duration or DRAM bytes not collected: profile with --preset roofline or deep_dive";
    return p;
  }
  p.bytes_per_s = p.dram_bytes / p.seconds;
  if (std::isfinite(p.flops)) p.flops_per_s = p.flops / p.seconds;
  if (std::isfinite(p.flops) && p.dram_bytes > 0) p.intensity = p.flops / p.dram_bytes;
  if (std::isfinite(peak_bw) && std::isfinite(peak_fl) && peak_bw > 0) p.ridge = peak_fl / peak_bw;
  // A kernel with no counted FLOPs (a copy, a transpose) sits at intensity 0: only the bandwidth roof applies.
  bool memory = !std::isfinite(p.intensity) || p.intensity == 0 || (std::isfinite(p.ridge) && p.intensity < p.ridge);
  p.bound = memory ? "memory" : std::isfinite(p.ridge) ? "compute" : "";
  if (memory && std::isfinite(peak_bw) && peak_bw > 0) p.pct_of_roof = 100 * p.bytes_per_s / peak_bw;
  else if (!memory && std::isfinite(peak_fl) && peak_fl > 0) p.pct_of_roof = 100 * p.flops_per_s / peak_fl;
  if (!std::isfinite(p.flops)) p.note = "FP instruction counts not collected (FLOPs unknown; placed by bandwidth)";
  else if (k.get(m::tensor_active) > 1) p.note = "tensor-core FLOPs are not counted (SASS FP counters only)";
  return p;
}

}  // namespace aisp::profile
