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

// One series' median with a percentile-bootstrap CI (a goal metric's own interval: throughput, latency).
Interval bootstrap_median_ci(const std::vector<double>& values, double confidence = 0.95, int resamples = 2000,
                             uint64_t rng_seed = 0x5eed);

// Two runs of the same code in two worker processes do not time exactly alike: each process gets its own
// physical placement of its buffers (and its own context), and on memory-bound kernels that shifts the
// median by a fixed ~0.05-0.2% for the life of the process (measured: A/A on an H100,
// docs/measurements/calibration_history_h100.md). One interleaved pair of processes cannot see that shift:
// its bootstrap interval only covers sampling noise. An A/A run over several processes can measure it.
struct ProcessSpread {
  double sd_log = 0;  // standard deviation of a process's log median beyond its own sampling error
  int df = 0;         // degrees of freedom of the estimate (processes - 1); 0: not measured, no widening
  bool measured() const { return df > 0; }
};

// One-way random-effects estimate from the raw samples of several processes running the same code:
// the variance of their log medians minus the mean within-process variance of a log median (bootstrap).
ProcessSpread between_process_spread(const std::vector<std::vector<double>>& per_process_samples,
                                     int resamples = 400, uint64_t rng_seed = 0x5eed);

// A speedup compares two processes, so its error has a between-process part of variance 2 * sd^2 on the
// log scale. Each side of the interval is widened in quadrature by t(df) * sqrt(2) * sd (Student's t:
// the spread is estimated from few processes).
Interval widen_for_process_spread(const Interval& ci, const ProcessSpread& spread, double confidence = 0.95);

// Student's t distribution with `df` degrees of freedom: its CDF, and its quantile for p in (0, 1).
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);

// Two-sided Mann-Whitney U test p-value (normal approximation with tie correction).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace aisp
