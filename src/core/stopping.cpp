#include "core/stopping.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join lives here from fmt 11 on

namespace aisp {

namespace {

// NVBench's constants (research/harness_anchors.md §1.6).
constexpr int64_t kMinSamplesForNoise = 5;
constexpr size_t kNoiseHistory = 512;
constexpr size_t kStabilityWindow = 64;
constexpr int64_t kStabilityEvery = 16;
constexpr double kStableRelStdev = 0.05;

std::string pct(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  double p = fraction * 100.0;
  return p < 10 ? fmt::format("{:.2f}%", p) : fmt::format("{:.1f}%", p);
}

}  // namespace

double StdRelCriterion::noise() const {
  if (n_ < kMinSamplesForNoise) return std::numeric_limits<double>::infinity();
  double var = m2_ / static_cast<double>(n_ - 1);
  // A perfectly constant series (zero times included) has no noise, whatever its mean.
  if (!(var > 0)) return 0.0;
  if (!(mean_ > 0)) return std::numeric_limits<double>::infinity();
  return std::sqrt(var) / mean_;
}

void StdRelCriterion::add(double sample_s) {
  ++n_;
  total_ += sample_s;
  double delta = sample_s - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (sample_s - mean_);
  if (n_ < kMinSamplesForNoise) return;

  double current = noise();
  if (!std::isfinite(current)) return;  // non-positive mean: nothing meaningful to track
  noise_history_.push_back(current);
  if (noise_history_.size() > kNoiseHistory) noise_history_.pop_front();

  // "Stable" means more samples would not move the noise estimate: the estimate itself has stopped
  // wandering. Re-evaluated at each check, so a drifting series can become unstable again.
  if (noise_history_.size() > kStabilityWindow && n_ % kStabilityEvery == 0) {
    double mean = 0, m2 = 0;
    int64_t k = 0;
    auto first = noise_history_.end() - static_cast<std::ptrdiff_t>(kStabilityWindow);
    for (auto it = first; it != noise_history_.end(); ++it) {
      ++k;
      double d = *it - mean;
      mean += d / static_cast<double>(k);
      m2 += d * (*it - mean);
    }
    double sd = std::sqrt(m2 / static_cast<double>(k - 1));
    noise_stable_ = mean > 0 ? sd / mean < kStableRelStdev : true;
  }
}

bool StdRelCriterion::done(double elapsed_wall_s) const {
  if (n_ >= policy_.max_samples) return true;
  // Whether or not any sample was kept: a variant whose every sample is discarded (throttled) must still
  // stop at the time limit (it then has no statistics, which the verdict phase reports).
  if (elapsed_wall_s >= policy_.time_limit_s) return true;
  if (n_ < policy_.min_samples || total_ < policy_.min_gpu_time_s) return false;
  return noise() <= policy_.max_noise || noise_stable_;
}

std::string StdRelCriterion::reason(double elapsed_wall_s) const {
  bool minimums = n_ >= policy_.min_samples && total_ >= policy_.min_gpu_time_s;
  double nz = noise();
  if (minimums && nz <= policy_.max_noise) return fmt::format("noise {} <= {}", pct(nz), pct(policy_.max_noise));
  if (minimums && noise_stable_) return fmt::format("noise stable at {}", pct(nz));
  if (n_ >= policy_.max_samples) return fmt::format("sample limit {} (noise {})", policy_.max_samples, pct(nz));
  if (elapsed_wall_s >= policy_.time_limit_s)
    return n_ ? fmt::format("time limit {:.1f} s (noise {})", policy_.time_limit_s, pct(nz))
              : fmt::format("time limit {:.1f} s with no sample kept (every one discarded)", policy_.time_limit_s);

  std::vector<std::string> unmet;
  if (n_ < policy_.min_samples) unmet.push_back(fmt::format("samples {}/{}", n_, policy_.min_samples));
  if (total_ < policy_.min_gpu_time_s)
    unmet.push_back(fmt::format("GPU time {:.3f}/{:.3f} s", total_, policy_.min_gpu_time_s));
  if (!(nz <= policy_.max_noise)) unmet.push_back(fmt::format("noise {} > {}", pct(nz), pct(policy_.max_noise)));
  return fmt::format("running: {}", fmt::join(unmet, ", "));
}

}  // namespace aisp
