// `bench scaling`: how a speedup moves along a workload axis, and the per-run speedup history behind the
// report's sparklines. Axis points come from runs of one target at several values of one workload param
// (other params fixed), whether they sit in one run or in several.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/scaling_history.hpp"

namespace aisp::analysis {
namespace {

// Least squares y = a + b x; r2 = 1 - SS_res / SS_tot (NaN with fewer than 2 points or constant x).
struct Fit {
  double a = kNaN, b = kNaN, r2 = kNaN;
};
Fit least_squares(const std::vector<double>& x, const std::vector<double>& y) {
  Fit f;
  size_t n = x.size();
  if (n < 2) return f;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= n, my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx <= 0) return f;
  f.b = sxy / sxx;
  f.a = my - f.b * mx;
  double ss_res = 0;
  for (size_t i = 0; i < n; ++i) ss_res += (y[i] - f.a - f.b * x[i]) * (y[i] - f.a - f.b * x[i]);
  f.r2 = syy > 0 ? 1.0 - ss_res / syy : 1.0;
  return f;
}

struct Measured {
  json params;
  ScalingPoint point;
};

}  // namespace

Scaling scaling(const std::vector<RunData>& runs) {
  Scaling s;
  // (target, variant) -> measurements; a later run at the same params replaces an earlier one.
  std::map<std::pair<std::string, std::string>, std::vector<Measured>> by_series;
  for (auto& run : runs)
    for (auto& t : run.targets) {
      if (!t.workload.is_object() || !t.baseline.timing.median) continue;
      json params = t.workload.value("params", json::object());
      // `--axis` runs name each point "ch07:copy_scalar[n=65536]": one series per target, not per point.
      const std::string series_id = t.id.substr(0, t.id.find('['));
      for (auto& v : t.optimizations) {
        if (v.verdict == "INVALID" || v.timing.median <= 0 || v.speedup <= 0) continue;
        auto& list = by_series[{series_id, v.name}];
        ScalingPoint p{kNaN, run.key, t.baseline.timing.median, v.timing.median, v.speedup, v.ci_low, v.ci_high};
        auto same = std::find_if(list.begin(), list.end(), [&](const Measured& m) { return m.params == params; });
        if (same != list.end()) same->point = p;
        else list.push_back({params, p});
      }
    }
  for (auto& [key, list] : by_series) {
    bool found_axis = false;
    std::set<std::string> names;
    for (auto& m : list)
      for (auto& [k, v] : m.params.items())
        if (v.is_number()) names.insert(k);
    for (auto& axis : names) {
      // Group by every other param: each group is one line along `axis`.
      std::map<std::string, std::vector<const Measured*>> groups;
      for (auto& m : list) {
        if (!m.params.contains(axis) || !m.params[axis].is_number()) continue;
        json rest = m.params;
        rest.erase(axis);
        groups[rest.dump()].push_back(&m);
      }
      for (auto& [rest, members] : groups) {
        std::set<double> xs;
        for (auto* m : members) xs.insert(m->params[axis].get<double>());
        if (xs.size() < 2) continue;
        found_axis = true;
        ScalingSeries ser;
        ser.target = key.first;
        ser.variant = key.second;
        ser.axis = axis;
        ser.fixed_params = json::parse(rest);
        for (auto* m : members) {
          ScalingPoint p = m->point;
          p.x = m->params[axis].get<double>();
          ser.points.push_back(p);
        }
        std::sort(ser.points.begin(), ser.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
        std::vector<double> lx, sp, lb, lv;
        double half_ci = 0;
        int with_ci = 0;
        for (auto& p : ser.points) {
          if (p.x <= 0) continue;
          lx.push_back(std::log2(p.x));
          sp.push_back(p.speedup);
          lb.push_back(std::log2(p.baseline_ms));
          lv.push_back(std::log2(p.variant_ms));
          if (known(p.ci_low) && known(p.ci_high) && p.ci_high > p.ci_low) half_ci += (p.ci_high - p.ci_low) / 2, ++with_ci;
        }
        Fit f = least_squares(lx, sp);
        ser.speedup_intercept = f.a;
        ser.speedup_per_doubling = f.b;
        ser.speedup_r2 = f.r2;
        ser.baseline_exponent = least_squares(lx, lb).b;
        ser.variant_exponent = least_squares(lx, lv).b;
        // "flat" when the fitted change across the measured range is inside the typical CI half-width: the
        // trend is then not distinguishable from the per-point uncertainty.
        if (known(f.b) && lx.size() >= 2) {
          double change = f.b * (lx.back() - lx.front());
          double noise = with_ci ? half_ci / with_ci : 0.0;
          ser.trend = std::abs(change) <= noise ? "flat" : (change > 0 ? "grows" : "shrinks");
        }
        s.series.push_back(std::move(ser));
      }
    }
    if (!found_axis) s.single_point.push_back(key.first + " " + key.second);
  }
  if (s.series.empty())
    s.notes.push_back("no workload axis in this data: every target was measured at one set of workload params, so "
                      "there is no trend to fit (run a target at several sizes, e.g. successive runs with another n, "
                      "to see one)");
  else
    s.notes.push_back("fit: speedup = a + b * log2(x) (b = change per doubling of the axis); time ~ x^k from the "
                      "log-log slope of each median");
  return s;
}

std::map<std::string, std::vector<HistoryPoint>> speedup_history(const std::vector<RunData>& runs) {
  std::map<std::string, std::vector<HistoryPoint>> out;
  for (auto& run : runs)
    for (auto& t : run.targets)
      for (auto& v : t.optimizations) {
        if (v.verdict == "INVALID" || v.speedup <= 0) continue;
        out[t.id + " " + v.name].push_back({run.key, run.stamp, v.speedup, v.ci_low, v.ci_high, v.timing.median});
      }
  return out;
}

}  // namespace aisp::analysis
