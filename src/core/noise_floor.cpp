#include "core/noise_floor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_io.hpp"

namespace aisp {

namespace {

// Symmetric in ratio terms: an interval of [0.99, 1.004] is a 1% deviation.
double deviation(const Interval& ci) { return std::max(std::abs(ci.high - 1.0), std::abs(1.0 / ci.low - 1.0)); }

json interval_json(const Interval& i) { return {{"speedup", i.point}, {"ci_low", i.low}, {"ci_high", i.high}}; }
Interval interval_from(const json& j) {
  return {j.value("speedup", 1.0), j.value("ci_low", 1.0), j.value("ci_high", 1.0)};
}

// The inverse of widen_for_process_spread (stats.hpp): each side shrunk in quadrature by the same term.
Interval narrow_for_process_spread(const Interval& ci, const ProcessSpread& spread) {
  if (!spread.measured() || !(ci.point > 0) || !(ci.low > 0) || !(ci.high > 0)) return ci;
  double t = student_t_quantile(0.975, spread.df);
  double extra = t * std::sqrt(2.0) * spread.sd_log;
  double lp = std::log(ci.point);
  auto shrink = [&](double side) { return std::sqrt(std::max(0.0, side * side - extra * extra)); };
  return {ci.point, std::exp(lp - shrink(lp - std::log(ci.low))), std::exp(lp + shrink(std::log(ci.high) - lp))};
}

// The largest floor (applied to targets never calibrated, in a file without spreads) and the largest spread
// (recorded only: an uncalibrated target gets the upper quartile, spread_for).
void recompute_device_figures(NoiseFloor& f) {
  f.device_floor = 0;
  f.device_spread = {};
  for (auto& [id, e] : f.targets) {
    f.device_floor = std::max(f.device_floor, e.floor);
    if (e.spread.measured() && (!f.device_spread.measured() || e.spread.sd_log > f.device_spread.sd_log))
      f.device_spread = e.spread;
  }
}

}  // namespace

int NoiseFloorEntry::within_excluding_one() const {
  return static_cast<int>(std::count_if(comparisons.begin(), comparisons.end(), [](const AaComparison& c) {
    return c.within.low > 1.0 || c.within.high < 1.0;
  }));
}

double NoiseFloor::floor_for(const std::string& target) const {
  auto it = targets.find(target);
  return it != targets.end() ? it->second.floor : device_floor;
}

ProcessSpread NoiseFloor::spread_for(const std::string& target) const {
  auto it = targets.find(target);
  return it != targets.end() ? it->second.spread : spread_percentile(*this, kUncalibratedSpreadPercentile);
}

ProcessSpread spread_percentile(const NoiseFloor& f, double p) {
  std::vector<double> sd;
  int df = 0;
  for (auto& [id, e] : f.targets)
    if (e.spread.measured()) {
      sd.push_back(e.spread.sd_log);
      df = df == 0 ? e.spread.df : std::min(df, e.spread.df);
    }
  if (sd.empty()) return {};
  std::sort(sd.begin(), sd.end());
  double k = std::clamp(p, 0.0, 1.0) * static_cast<double>(sd.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(k));
  size_t hi = std::min(lo + 1, sd.size() - 1);
  return {sd[lo] + (sd[hi] - sd[lo]) * (k - static_cast<double>(lo)), df};
}

NoiseModel noise_model_for(const NoiseFloor* calibration, const std::string& target) {
  if (calibration) {
    bool own = calibration->targets.count(target) > 0;
    ProcessSpread spread = calibration->spread_for(target);
    // With a measured spread the intervals themselves carry the A/A noise, so the floor must not also
    // raise the decision band (that would count the same noise twice).
    if (spread.measured()) return {spread, 0.0, own ? "calibration" : "calibration (device quartile)"};
    // A calibration without spreads (one copy, or a file from before they existed): the older floor band.
    if (double floor = calibration->floor_for(target); floor > 0) return {{}, floor, "calibration (floor)"};
  }
  return {kDefaultProcessSpread, 0.0, "default"};
}

void keep_older_targets(NoiseFloor& fresh, const NoiseFloor& older) {
  if (older.hardware_key != fresh.hardware_key) return;
  for (auto& [id, e] : older.targets) fresh.targets.emplace(id, e);  // emplace keeps the fresh entry
  recompute_device_figures(fresh);
}

NoiseFloor noise_floor_from_results(const std::vector<TargetResult>& aa) {
  NoiseFloor f;
  for (auto& t : aa) {
    std::vector<std::vector<double>> processes;
    if (t.baseline.samples_ms.size() >= 2) processes.push_back(t.baseline.samples_ms);
    std::vector<const VariantResult*> copies;
    for (auto& v : t.optimizations)
      if (v.samples_ms.size() >= 2 && v.ci_low > 0) {
        copies.push_back(&v);
        processes.push_back(v.samples_ms);
      }
    if (copies.empty() || processes.size() < 2) continue;
    NoiseFloorEntry e;
    e.spread = between_process_spread(processes);
    for (const VariantResult* v : copies) {
      // The A/A run itself may have widened its intervals by a spread (the default one, for a GPU with no
      // calibration yet); the within-process interval is the one before that widening.
      Interval stored{v->speedup, v->ci_low, v->ci_high};
      AaComparison c{v->name, narrow_for_process_spread(stored, v->ci_process_spread), {},
                     static_cast<int64_t>(v->samples_ms.size())};
      c.widened = widen_for_process_spread(c.within, e.spread, 0.95);
      e.floor = std::max(e.floor, deviation(c.widened));
      e.samples += c.samples;
      e.comparisons.push_back(c);
    }
    // The target's interval: the first comparison that excludes 1 if any does (every one must contain 1
    // for "no difference"), else the one whose speedup is farthest from 1.
    auto excludes_one = [](const AaComparison& c) { return c.widened.low > 1.0 || c.widened.high < 1.0; };
    auto shown = std::find_if(e.comparisons.begin(), e.comparisons.end(), excludes_one);
    if (shown == e.comparisons.end())
      shown = std::max_element(e.comparisons.begin(), e.comparisons.end(), [](auto& x, auto& y) {
        return std::abs(std::log(x.widened.point)) < std::abs(std::log(y.widened.point));
      });
    e.speedup = shown->widened.point;
    e.ci_low = shown->widened.low;
    e.ci_high = shown->widened.high;
    f.targets[t.id] = std::move(e);
  }
  recompute_device_figures(f);
  return f;
}

json to_json(const NoiseFloor& f) {
  json targets = json::object();
  for (auto& [id, e] : f.targets) {
    json comparisons = json::array();
    for (auto& c : e.comparisons)
      comparisons.push_back({{"variant", c.variant}, {"samples", c.samples}, {"within_process", interval_json(c.within)},
                             {"with_process_spread", interval_json(c.widened)}});
    targets[id] = {{"speedup", e.speedup}, {"ci_low", e.ci_low}, {"ci_high", e.ci_high}, {"samples", e.samples},
                   {"floor", e.floor}, {"ci_contains_1", e.contains_one()},
                   {"process_spread", {{"sd_log", e.spread.sd_log}, {"df", e.spread.df}}},
                   {"comparisons", comparisons}};
  }
  return {{"schema_version", 2},
          {"kind", "aisp_noise_floor"},
          {"hardware_key", f.hardware_key},
          {"gpu", f.gpu},
          {"driver", f.driver},
          {"cuda", f.cuda},
          {"date", f.date},
          {"commit", f.commit},
          {"device_floor", f.device_floor},
          {"device_process_spread", {{"sd_log", f.device_spread.sd_log}, {"df", f.device_spread.df}}},
          {"targets", targets}};
}

NoiseFloor load_noise_floor(const std::filesystem::path& file) {
  json j = read_json(file);  // names the file on parse errors
  if (j.value("kind", "") != "aisp_noise_floor" || !j.contains("targets") || !j["targets"].is_object())
    throw std::runtime_error(fmt::format("{}: not an aisp noise-floor file (kind != aisp_noise_floor)", file.string()));
  auto spread_from = [](const json& s) {
    return s.is_object() ? ProcessSpread{s.value("sd_log", 0.0), s.value("df", 0)} : ProcessSpread{};
  };
  NoiseFloor f;
  try {
    f.hardware_key = j.value("hardware_key", "");
    f.gpu = j.value("gpu", "");
    f.driver = j.value("driver", "");
    f.cuda = j.value("cuda", "");
    f.date = j.value("date", "");
    f.commit = j.value("commit", "");
    f.device_floor = j.value("device_floor", 0.0);
    f.device_spread = spread_from(j.value("device_process_spread", json()));
    for (auto& [id, e] : j["targets"].items()) {
      NoiseFloorEntry entry;
      entry.speedup = e.value("speedup", 1.0);
      entry.ci_low = e.value("ci_low", 1.0);
      entry.ci_high = e.value("ci_high", 1.0);
      entry.samples = e.value("samples", int64_t{0});
      entry.floor = e.value("floor", 0.0);
      entry.spread = spread_from(e.value("process_spread", json()));
      for (auto& c : e.value("comparisons", json::array()))
        entry.comparisons.push_back({c.value("variant", ""), interval_from(c.value("within_process", json::object())),
                                     interval_from(c.value("with_process_spread", json::object())),
                                     c.value("samples", int64_t{0})});
      f.targets[id] = std::move(entry);
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: malformed noise-floor file: {}", file.string(), e.what()));
  }
  return f;
}

std::filesystem::path noise_floor_path(const std::filesystem::path& artifacts_dir, const std::string& hardware_key) {
  return artifacts_dir / "calibration" / fmt::format("noise_floor_{}.json", hardware_key);
}

}  // namespace aisp
