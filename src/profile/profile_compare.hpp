// Baseline vs optimized, metric by metric: the deltas that explain a speedup ("DRAM bytes -48%, store
// sectors/request 32 -> 4"). A variant that launches several kernels is compared on its aggregate
// (counters summed, percentages weighted by kernel duration).
#pragma once
#include <string>
#include <vector>

#include "profile/ncu_csv.hpp"

namespace aisp::profile {

// Counters (.sum, bytes, sectors, requests, instructions, the duration) add up; percentages and ratios
// are averaged weighted by each kernel's duration; launch facts come from the longest kernel.
KernelProfile aggregate(const std::vector<KernelProfile>& kernels);

struct MetricDelta {
  std::string metric, label, unit;
  double a = kNaN, b = kNaN;
  double change_pct = kNaN;  // (b - a) / a in %
  bool lower_is_better = true;
  std::string better;        // a | b | same
};

struct ProfileComparison {
  std::string a_name, b_name;
  double a_ns = kNaN, b_ns = kNaN, speedup = kNaN;  // profiled kernel time (ncu, one run)
  std::vector<MetricDelta> deltas;
  std::vector<std::string> explanation;  // sentences, the most telling first
};

ProfileComparison compare_profiles(const std::string& a_name, const KernelProfile& a, const std::string& b_name,
                                   const KernelProfile& b);

}  // namespace aisp::profile
