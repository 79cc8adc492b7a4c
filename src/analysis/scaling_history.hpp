// `bench scaling` and the report's history: how a speedup changes along a workload axis and over runs.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/dataset.hpp"

namespace aisp::analysis {

struct ScalingPoint {
  double x = kNaN;  // the axis value
  std::string run;  // run key (or "" within one run)
  double baseline_ms = kNaN, variant_ms = kNaN, speedup = kNaN, ci_low = kNaN, ci_high = kNaN;
};
struct ScalingSeries {
  std::string target, variant, axis;
  json fixed_params;  // the params that stay constant along the axis
  std::vector<ScalingPoint> points;  // by x
  // Fits over log2(x): speedup = a + b*log2(x) (b = change per doubling) and time ~ x^k (log-log slopes).
  double speedup_per_doubling = kNaN, speedup_intercept = kNaN, speedup_r2 = kNaN;
  double baseline_exponent = kNaN, variant_exponent = kNaN;
  std::string trend;  // "grows" | "shrinks" | "flat" (|change over the range| < the CIs' half-width)
};
struct Scaling {
  std::vector<ScalingSeries> series;
  std::vector<std::string> single_point;  // "<target> <variant>": measured at one workload size only
  std::vector<std::string> notes;
};
Scaling scaling(const std::vector<RunData>& runs);

struct HistoryPoint {
  std::string run, stamp;
  double speedup = kNaN, ci_low = kNaN, ci_high = kNaN, variant_ms = kNaN;
};
// Per "<target> <variant>", oldest first, over the dataset's runs of one hardware key.
std::map<std::string, std::vector<HistoryPoint>> speedup_history(const std::vector<RunData>& runs);

}  // namespace aisp::analysis
