// `bench whatif`: which variants fit a deployment's constraints (memory, latency, throughput, speedup).
#pragma once
#include <string>
#include <vector>

#include "analysis/variant_metrics.hpp"

namespace aisp::analysis {

struct WhatIfConstraints {
  double max_vram_gb = kNaN;       // measured peak memory must be <= this (GiB of 2^30 bytes)
  double max_latency_ms = kNaN;    // the chosen latency statistic must be <= this
  std::string latency_stat = "p99";  // "median" | "p99"
  double min_throughput = kNaN;    // items/s (the workload's item unit)
  double min_speedup = kNaN;
};
struct WhatIfRow {
  VariantRow row;
  bool fits = false;
  std::vector<std::string> violations;  // why it does not fit
};
struct WhatIf {
  WhatIfConstraints constraints;
  std::vector<WhatIfRow> fits, rejected;  // fits: by target, then fastest first
  std::vector<std::string> best_per_target;  // "<target>: <variant> (<median> ms, <peak> MiB)"
};
WhatIf whatif(const std::vector<VariantRow>& rows, const WhatIfConstraints& c);

}  // namespace aisp::analysis
