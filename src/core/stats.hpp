// Summary statistics over raw samples. Every statistic aisp reports is computed here, in the supervisor,
// from the raw samples the workers return: a worker never summarizes its own timing.
#pragma once
#include <cstdint>
#include <vector>

namespace aisp {

struct Summary {
  int64_t n = 0;
  double mean = 0, stdev = 0, min = 0, max = 0;
  double median = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0;
  double rel_noise = 0;  // stdev / mean (NVBench's "noise")
};

// Percentile with linear interpolation between closest ranks (numpy's default), p in [0, 100].
double percentile(std::vector<double> values, double p);
double median(std::vector<double> values);
Summary summarize(const std::vector<double>& values);

struct Interval {
  double point = 0, low = 0, high = 0;
};

// Speedup = median(baseline) / median(candidate), with a percentile-bootstrap CI at `confidence`
// (resampling each group independently; deterministic for a given rng_seed).
Interval bootstrap_speedup_ci(const std::vector<double>& baseline, const std::vector<double>& candidate,
                              double confidence = 0.95, int resamples = 2000, uint64_t rng_seed = 0x5eed);

// Two-sided Mann-Whitney U test p-value (normal approximation with tie correction).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace aisp
