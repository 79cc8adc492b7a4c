// Change points in a benchmark's history: where the level of a series of per-run medians shifts, and by
// how much. Host-only and pure, so the store, the CLI and later the dashboard all mark the same runs.
#pragma once
#include <cstddef>
#include <vector>

#include "core/stats.hpp"

namespace aisp {

// One run's measurement: its median and the confidence interval of that median (e.g. median_ci()).
struct SeriesPoint {
  double value = 0, low = 0, high = 0;
};

struct ChangePoint {
  size_t index = 0;        // first point of the new level (index into the input series)
  double before = 0;       // median level of the segment that ends at index - 1
  double after = 0;        // median level of the segment that starts at index
  double rel_shift = 0;    // (after - before) / before: for times, > 0 means slower
  double statistic = 0;    // t-like: the step over its standard error (between the final segments)
};

struct ChangePointOptions {
  size_t min_size = 2;          // points on each side of a split: a one-run blip is an outlier, not a level
  double min_rel_shift = 0.05;  // smaller steps are not reported (asv's default threshold)
  double min_statistic = 4.0;   // the step in standard errors (run-to-run scatter + the runs' own CIs)
};

// Binary segmentation; see change_points.cpp for the method. Non-finite points are ignored (their
// index is skipped). Results are ordered by index.
std::vector<ChangePoint> detect_change_points(const std::vector<SeriesPoint>& series,
                                              const ChangePointOptions& options = {});

// Distribution-free confidence interval of the median from order statistics (binomial, normal
// approximation): ranks n/2 -/+ z*sqrt(n)/2. With fewer than 6 samples it is [min, max].
Interval median_ci(std::vector<double> samples, double confidence = 0.95);

}  // namespace aisp
