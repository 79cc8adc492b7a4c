// The seed's "Bottleneck Decision Tree" (seed 001) over one kernel's ncu metrics, extended with the two
// checks its anti-pattern list names but its tree does not reach: uncoalesced access and bank conflicts
// measured against the work done. Every finding carries the metric values it was decided on, and the
// fixes are the "Optimization Patterns" rows (metrics_catalog.hpp), so the reader can check the reasoning.
#pragma once
#include <string>
#include <vector>

#include "profile/ncu_csv.hpp"

namespace aisp::profile {

struct Evidence {
  std::string metric, label;
  double value = kNaN;
  std::string unit;
  std::string note;  // the threshold it was compared with, or how it was derived
};

struct Finding {
  std::string id;        // memory_bound | compute_bound | uncoalesced | register_spills | occupancy_limited |
                         // stall_<reason> | bank_conflicts | warp_divergence | latency_bound | balanced
  std::string title;     // "MEMORY BOUND"
  std::string severity;  // critical | warning | info
  std::string why;       // one sentence with the numbers
  std::vector<Evidence> evidence;
  std::vector<std::string> fixes;
};

struct Diagnosis {
  std::string kernel;
  std::string verdict;                 // the primary finding's id ("unknown" when nothing could be decided)
  std::vector<Finding> findings;       // primary first
  std::vector<std::string> not_evaluated;  // rules skipped because their metrics were not collected
};

// Thresholds (the seed's, where it has them; ours carry their reason in bottleneck.cpp).
Diagnosis diagnose(const KernelProfile& k);

}  // namespace aisp::profile
