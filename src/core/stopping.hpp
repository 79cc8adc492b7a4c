// When to stop sampling: NVBench's "stdrel" criterion, fed one sample at a time.
#pragma once
#include <cstdint>
#include <deque>
#include <string>

namespace aisp {

struct StoppingPolicy {
  // Defaults are NVBench's: 0.5% relative noise and 0.5 s of accumulated GPU time; at least 10 samples
  // because noise from fewer is itself too noisy to trust.
  double max_noise = 0.005;
  double min_gpu_time_s = 0.5;
  int64_t min_samples = 10;
  int64_t max_samples = 100000;
  double time_limit_s = 15.0;  // per variant, wall time spent sampling
};

// Online mean/variance (Welford), noise = stdev/mean; stops when noise <= max_noise after the minimums,
// or when the noise has stabilized above the target (relative stdev of the last 64 noise values < 5%,
// checked every 16 samples), or when the sample/time limits are hit. `reason()` says which.
class StdRelCriterion {
 public:
  // Non-explicit default constructor so aggregates holding a criterion can be brace-initialized.
  StdRelCriterion() = default;
  explicit StdRelCriterion(StoppingPolicy p) : policy_(p) {}
  void add(double sample_s);
  bool done(double elapsed_wall_s) const;
  std::string reason(double elapsed_wall_s) const;
  int64_t count() const { return n_; }
  double noise() const;
  double total_s() const { return total_; }

 private:
  StoppingPolicy policy_;
  int64_t n_ = 0;
  double mean_ = 0, m2_ = 0, total_ = 0;
  std::deque<double> noise_history_;
  bool noise_stable_ = false;
};

}  // namespace aisp
