// Method (binary segmentation on per-run medians, with the runs' own uncertainty in the noise term):
//
//  1. Noise of one point: s^2 = sigma^2 + mean(se_i^2), where sigma is the series' run-to-run scatter,
//     estimated robustly from successive differences (1.4826 * MAD(diff) / sqrt 2, so the steps being
//     looked for barely move it), and se_i = (high_i - low_i) / (2 * 1.96) is run i's own standard error
//     from its median CI. The second term matters: a short, flat history has no scatter, so without it
//     any tiny step would look certain; with it a step must be large against what each run resolves.
//  2. For a segment [a, b), every split k leaving >= min_size points per side is scored with a t-like
//     statistic on medians, T(k) = |median(R) - median(L)| / sqrt(s^2 * (1/nL + 1/nR)); medians, so a
//     single wild run neither creates a split nor hides a real one.
//  3. The best split is kept only if T >= min_statistic, the relative step >= min_rel_shift, and the
//     sides' typical CIs ([lower median of lows, upper median of highs]) do not overlap: the level moved
//     by more than the runs' own confidence intervals. Then both halves are searched again.
//  4. Each change point reports the medians of the final segments on either side of it.
// Why not PELT or asv's L1 Potts fit: histories here are tens of runs, where binary segmentation is
// exact enough, needs no penalty tuning, and is easy to explain next to a marker in a table.
#include "core/change_points.hpp"

#include <algorithm>
#include <cmath>

namespace aisp {

namespace {

double mean_of(const std::vector<double>& v, size_t a, size_t b) {
  double s = 0;
  for (size_t i = a; i < b; ++i) s += v[i];
  return s / static_cast<double>(b - a);
}

std::vector<double> slice(const std::vector<double>& v, size_t a, size_t b) {
  return {v.begin() + static_cast<std::ptrdiff_t>(a), v.begin() + static_cast<std::ptrdiff_t>(b)};
}

double median_of(const std::vector<double>& v, size_t a, size_t b) { return median(slice(v, a, b)); }

// The lower (upper) of the two middle elements for an even count: with two runs a side's band spans
// both, so a 2-run "level" made of one normal run and one outlier cannot look certain.
double lower_median(const std::vector<double>& v, size_t a, size_t b) {
  auto s = slice(v, a, b);
  std::sort(s.begin(), s.end());
  return s[(s.size() - 1) / 2];
}
double upper_median(const std::vector<double>& v, size_t a, size_t b) {
  auto s = slice(v, a, b);
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

struct Series {
  std::vector<double> value, low, high, se2;
  std::vector<size_t> index;  // position in the caller's series
};

double point_variance(const Series& s, size_t a, size_t b) {
  double sigma = 0;
  if (b - a >= 3) {
    std::vector<double> d;
    for (size_t i = a + 1; i < b; ++i) d.push_back(std::fabs(s.value[i] - s.value[i - 1]));
    sigma = 1.4826 * median(d) / std::sqrt(2.0);
  }
  return sigma * sigma + mean_of(s.se2, a, b);
}

void segment(const Series& s, size_t a, size_t b, const ChangePointOptions& o, std::vector<size_t>& splits) {
  size_t n = b - a;
  size_t min_size = std::max<size_t>(1, o.min_size);
  if (n < 2 * min_size) return;
  double var = point_variance(s, a, b);
  // Exactly flat, exactly certain data: any difference is real; keep the division finite.
  if (var <= 0) var = 1e-300 + 1e-24 * mean_of(s.value, a, b) * mean_of(s.value, a, b);
  double best_t = -1;
  size_t best_k = 0;
  for (size_t k = a + min_size; k + min_size <= b; ++k) {
    double nl = static_cast<double>(k - a), nr = static_cast<double>(b - k);
    double t = std::fabs(median_of(s.value, k, b) - median_of(s.value, a, k)) / std::sqrt(var * (1 / nl + 1 / nr));
    if (t > best_t) {
      best_t = t;
      best_k = k;
    }
  }
  if (best_t < o.min_statistic) return;
  double before = median_of(s.value, a, best_k), after = median_of(s.value, best_k, b);
  if (before == 0 || std::fabs(after - before) / std::fabs(before) < o.min_rel_shift) return;
  double l_low = lower_median(s.low, a, best_k), l_high = upper_median(s.high, a, best_k);
  double r_low = lower_median(s.low, best_k, b), r_high = upper_median(s.high, best_k, b);
  if (!(l_high < r_low || r_high < l_low)) return;
  splits.push_back(best_k);
  segment(s, a, best_k, o, splits);
  segment(s, best_k, b, o, splits);
}

// Standard normal quantile by bisection on erfc: called once per CI, so simplicity beats speed.
double normal_quantile(double p) {
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace

std::vector<ChangePoint> detect_change_points(const std::vector<SeriesPoint>& series, const ChangePointOptions& o) {
  Series s;
  for (size_t i = 0; i < series.size(); ++i) {
    const SeriesPoint& p = series[i];
    if (!std::isfinite(p.value)) continue;
    // A point without a usable CI contributes no measurement noise and a zero-width band.
    double low = std::isfinite(p.low) ? std::min(p.low, p.value) : p.value;
    double high = std::isfinite(p.high) ? std::max(p.high, p.value) : p.value;
    double se = (high - low) / (2 * 1.959964);
    s.value.push_back(p.value);
    s.low.push_back(low);
    s.high.push_back(high);
    s.se2.push_back(se * se);
    s.index.push_back(i);
  }
  std::vector<size_t> splits;
  segment(s, 0, s.value.size(), o, splits);
  std::sort(splits.begin(), splits.end());
  std::vector<ChangePoint> out;
  for (size_t i = 0; i < splits.size(); ++i) {
    size_t from = i == 0 ? 0 : splits[i - 1], k = splits[i];
    size_t to = i + 1 < splits.size() ? splits[i + 1] : s.value.size();
    ChangePoint cp;
    cp.index = s.index[k];
    cp.before = median_of(s.value, from, k);
    cp.after = median_of(s.value, k, to);
    cp.rel_shift = (cp.after - cp.before) / std::fabs(cp.before);
    double nl = static_cast<double>(k - from), nr = static_cast<double>(to - k);
    cp.statistic = std::fabs(cp.after - cp.before) / std::sqrt(point_variance(s, from, to) * (1 / nl + 1 / nr));
    // Noise-free data (no scatter, no CIs) make any step infinitely certain; keep the number printable.
    if (!std::isfinite(cp.statistic)) cp.statistic = 1e9;
    out.push_back(cp);
  }
  return out;
}

Interval median_ci(std::vector<double> samples, double confidence) {
  Interval r;
  samples.erase(std::remove_if(samples.begin(), samples.end(), [](double x) { return !std::isfinite(x); }),
                samples.end());
  if (samples.empty()) {
    r.point = r.low = r.high = std::nan("");
    return r;
  }
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  r.point = median(samples);
  if (n < 6) {
    r.low = samples.front();
    r.high = samples.back();
    return r;
  }
  double z = normal_quantile(0.5 + confidence / 2);
  double half = z * std::sqrt(static_cast<double>(n)) / 2;
  // 1-based ranks j (lower) and k (upper), clamped to the sample.
  auto j = static_cast<long>(std::floor(static_cast<double>(n) / 2 - half));
  auto k = static_cast<long>(std::ceil(static_cast<double>(n) / 2 + half)) + 1;
  j = std::clamp<long>(j, 1, static_cast<long>(n));
  k = std::clamp<long>(k, 1, static_cast<long>(n));
  r.low = samples[static_cast<size_t>(j - 1)];
  r.high = samples[static_cast<size_t>(k - 1)];
  return r;
}

}  // namespace aisp
