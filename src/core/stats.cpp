#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace aisp {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Same rule as percentile(), but on an already sorted range (avoids copies inside hot loops).
double sorted_percentile(const std::vector<double>& s, double p) {
  if (s.empty()) return kNaN;
  p = std::clamp(p, 0.0, 100.0);
  double rank = p / 100.0 * static_cast<double>(s.size() - 1);
  auto lo = static_cast<size_t>(std::floor(rank));
  size_t hi = std::min(lo + 1, s.size() - 1);
  double frac = rank - static_cast<double>(lo);
  return s[lo] + (s[hi] - s[lo]) * frac;
}

// Median by partial selection: the bootstrap calls this thousands of times, a full sort would dominate.
double median_inplace(std::vector<double>& v) {
  if (v.empty()) return kNaN;
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) * 0.5;
}

// Index in [0, n) from one 64-bit draw (Lemire's multiply-shift). std::uniform_int_distribution is
// implementation-defined, so it would make "deterministic for a seed" depend on the standard library.
size_t draw_index(std::mt19937_64& rng, size_t n) {
  return static_cast<size_t>((static_cast<unsigned __int128>(rng()) * n) >> 64);
}

}  // namespace

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return sorted_percentile(values, p);
}

double median(std::vector<double> values) { return median_inplace(values); }

Summary summarize(const std::vector<double>& values) {
  Summary s;
  s.n = static_cast<int64_t>(values.size());
  if (values.empty()) return s;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  // Two-pass mean/variance: exact enough for timing samples and immune to Welford's drift questions.
  double sum = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  s.mean = sum / static_cast<double>(s.n);
  if (s.n > 1) {
    double ss = 0;
    for (double v : sorted) ss += (v - s.mean) * (v - s.mean);
    s.stdev = std::sqrt(ss / static_cast<double>(s.n - 1));
  }
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = s.p50 = sorted_percentile(sorted, 50);
  s.p10 = sorted_percentile(sorted, 10);
  s.p90 = sorted_percentile(sorted, 90);
  s.p99 = sorted_percentile(sorted, 99);
  s.rel_noise = s.mean != 0 ? s.stdev / std::fabs(s.mean) : 0.0;
  return s;
}

Interval bootstrap_speedup_ci(const std::vector<double>& baseline, const std::vector<double>& candidate,
                              double confidence, int resamples, uint64_t rng_seed) {
  Interval out{kNaN, kNaN, kNaN};
  if (baseline.empty() || candidate.empty()) return out;
  out.point = median(baseline) / median(candidate);
  if (resamples <= 0) {
    out.low = out.high = out.point;
    return out;
  }
  std::mt19937_64 rng(rng_seed);
  std::vector<double> ratios(static_cast<size_t>(resamples));
  std::vector<double> rb(baseline.size()), rc(candidate.size());
  for (double& r : ratios) {
    for (double& x : rb) x = baseline[draw_index(rng, baseline.size())];
    for (double& x : rc) x = candidate[draw_index(rng, candidate.size())];
    r = median_inplace(rb) / median_inplace(rc);
  }
  std::sort(ratios.begin(), ratios.end());
  double alpha = (1.0 - std::clamp(confidence, 0.0, 1.0)) / 2.0;
  out.low = sorted_percentile(ratios, 100.0 * alpha);
  out.high = sorted_percentile(ratios, 100.0 * (1.0 - alpha));
  return out;
}

Interval bootstrap_median_ci(const std::vector<double>& values, double confidence, int resamples, uint64_t rng_seed) {
  Interval out{kNaN, kNaN, kNaN};
  if (values.empty()) return out;
  out.point = median(values);
  out.low = out.high = out.point;
  if (resamples <= 0) return out;
  std::mt19937_64 rng(rng_seed);
  std::vector<double> medians(static_cast<size_t>(resamples)), r(values.size());
  for (double& m : medians) {
    for (double& x : r) x = values[draw_index(rng, values.size())];
    m = median_inplace(r);
  }
  std::sort(medians.begin(), medians.end());
  double alpha = (1.0 - std::clamp(confidence, 0.0, 1.0)) / 2.0;
  out.low = sorted_percentile(medians, 100.0 * alpha);
  out.high = sorted_percentile(medians, 100.0 * (1.0 - alpha));
  return out;
}

namespace {

// Regularized incomplete beta I_x(a, b), by its continued fraction evaluated with Lentz's method; the
// fraction converges fast for x < (a + 1) / (a + b + 2), the other side uses I_x(a, b) = 1 - I_(1-x)(b, a).
double incomplete_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incomplete_beta(1 - x, b, a);
  const double tiny = 1e-300;
  double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x)) / a;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 5000; ++i) {
    int m = i / 2;
    double num;
    if (i == 0) num = 1;
    else if (i % 2 == 0) num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    c = 1 + num / (std::fabs(c) < tiny ? tiny : c);
    double step = c * d;
    f *= step;
    if (std::fabs(1 - step) < 1e-15) break;
  }
  return front * (f - 1);
}

}  // namespace

double student_t_cdf(double t, double df) {
  double tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0)) return kNaN;
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, df);
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, df) < p && hi < 1e12) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

ProcessSpread between_process_spread(const std::vector<std::vector<double>>& per_process, int resamples,
                                     uint64_t rng_seed) {
  std::vector<double> log_medians, sampling_var;
  std::mt19937_64 rng(rng_seed);
  for (auto& samples : per_process) {
    if (samples.size() < 2) continue;
    log_medians.push_back(std::log(median(samples)));
    // Sampling variance of this process's log median, by bootstrap (timing samples are skewed and tied).
    std::vector<double> draws(static_cast<size_t>(std::max(resamples, 2))), r(samples.size());
    for (double& m : draws) {
      for (double& x : r) x = samples[draw_index(rng, samples.size())];
      m = std::log(median_inplace(r));
    }
    double sd = summarize(draws).stdev;
    sampling_var.push_back(sd * sd);
  }
  ProcessSpread out;
  if (log_medians.size() < 2) return out;
  Summary between = summarize(log_medians);
  double within = std::accumulate(sampling_var.begin(), sampling_var.end(), 0.0) / static_cast<double>(sampling_var.size());
  out.sd_log = std::sqrt(std::max(0.0, between.stdev * between.stdev - within));
  out.df = static_cast<int>(log_medians.size()) - 1;
  return out;
}

Interval widen_for_process_spread(const Interval& ci, const ProcessSpread& spread, double confidence) {
  if (!spread.measured() || !(ci.point > 0) || !(ci.low > 0) || !(ci.high > 0)) return ci;
  double t = student_t_quantile(0.5 + 0.5 * std::clamp(confidence, 0.0, 0.999999), spread.df);
  double extra = t * std::sqrt(2.0) * spread.sd_log;
  double lp = std::log(ci.point);
  double below = std::hypot(lp - std::log(ci.low), extra), above = std::hypot(std::log(ci.high) - lp, extra);
  return {ci.point, std::exp(lp - below), std::exp(lp + above)};
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return 1.0;
  const double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size());
  const double n = n1 + n2;
  // Pool with group tags, rank with ties given their average rank.
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  pooled.reserve(a.size() + b.size());
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0, tie_term = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    double t = static_cast<double>(j - i);
    double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_a += avg_rank;
    tie_term += t * t * t - t;
    i = j;
  }
  double u1 = rank_sum_a - n1 * (n1 + 1) / 2.0;
  double mu = n1 * n2 / 2.0;
  double var = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(var > 0)) return 1.0;  // every value tied: no evidence of a difference
  // Continuity correction as in scipy.stats.mannwhitneyu(use_continuity=True, method="asymptotic").
  double z = std::max(0.0, std::fabs(u1 - mu) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace aisp
