// `bench analyze`: leaderboards, the speed/memory Pareto frontier, trade-offs and per-goal picks.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/leaderboards.hpp"

namespace aisp::analysis {
namespace {

std::string mib(double v) { return known(v) ? fmt::format("{:.0f} MiB", v) : "-"; }

// Peak memory comes from cudaMemGetInfo, which moves in allocation-granularity steps (2 MiB pages): a
// difference under 1 % of a footprint is granularity, not a trade-off worth listing.
constexpr double kMemoryNoisePct = 1.0;

}  // namespace

static std::string time_text(double ms) {
  if (!known(ms)) return "-";
  return ms < 1 ? fmt::format("{:.4g} µs", ms * 1e3) : fmt::format("{:.4g} ms", ms);
}

Leaderboards leaderboards(const std::vector<VariantRow>& rows, size_t top_n) {
  Leaderboards b;
  std::map<std::string, double> baseline_ms;
  for (auto& r : rows)
    if (r.baseline) baseline_ms[r.target] = r.median_ms;
  for (auto& r : rows) {
    if (!r.usable) {
      b.excluded.push_back(fmt::format("{} {}: {}", r.target, r.variant, r.unusable_reason));
      continue;
    }
    if (!r.baseline && known(r.speedup))
      b.speed.push_back({r.target, r.variant, r.technique, r.verdict, r.speedup, r.ci_low, r.ci_high, "x",
                         fmt::format("{} vs {}", time_text(r.median_ms),
                                     time_text(baseline_ms.count(r.target) ? baseline_ms[r.target] : kNaN))});
    if (!r.baseline && known(r.memory_savings_pct))
      b.memory.push_back({r.target, r.variant, r.technique, r.verdict, r.memory_savings_pct, kNaN, kNaN, "%",
                          fmt::format("peak {}", mib(r.peak_mb))});
    if (known(r.items_per_s)) {
      std::string detail;
      if (known(r.bytes_per_s)) detail += fmt::format("{:.1f} GB/s", r.bytes_per_s / 1e9);
      if (known(r.flops_per_s)) detail += fmt::format("{}{:.2f} TFLOP/s", detail.empty() ? "" : ", ", r.flops_per_s / 1e12);
      b.throughput.push_back({r.target, r.variant, r.technique, r.verdict, r.items_per_s, kNaN, kNaN, r.item_unit + "/s", detail});
    }
    if (known(r.roofline_pct)) {
      std::string detail = r.bound + "-bound";
      if (known(r.arithmetic_intensity)) detail += fmt::format(", {:.3g} FLOP/B", r.arithmetic_intensity);
      else detail += ", no FLOPs declared (bandwidth roof)";
      b.roofline.push_back({r.target, r.variant, r.technique, r.verdict, r.roofline_pct, kNaN, kNaN, "%", detail});
    }
  }
  // Speed ranks by the CI's lower end: a 3.0x [1.1, 5.0] claim is weaker than a 2.5x [2.4, 2.6] one.
  std::stable_sort(b.speed.begin(), b.speed.end(), [](const auto& x, const auto& y) {
    double lx = known(x.low) ? x.low : x.value, ly = known(y.low) ? y.low : y.value;
    return lx > ly;
  });
  auto by_value = [](const auto& x, const auto& y) { return x.value > y.value; };
  std::stable_sort(b.memory.begin(), b.memory.end(), by_value);
  std::stable_sort(b.roofline.begin(), b.roofline.end(), by_value);
  // items/s are only comparable within one item unit: group by unit, fastest first inside each.
  std::stable_sort(b.throughput.begin(), b.throughput.end(),
                   [](const auto& x, const auto& y) { return x.unit != y.unit ? x.unit < y.unit : x.value > y.value; });
  auto cut = [&](auto& v) {
    if (top_n > 0 && v.size() > top_n) v.resize(top_n);
  };
  cut(b.speed);
  cut(b.memory);
  cut(b.roofline);
  cut(b.throughput);
  return b;
}

std::vector<size_t> pareto_indices(const std::vector<std::pair<double, double>>& p) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!known(p[i].first) || !known(p[i].second)) continue;
    bool dominated = false;
    for (size_t j = 0; j < p.size() && !dominated; ++j) {
      if (j == i || !known(p[j].first) || !known(p[j].second)) continue;
      dominated = p[j].first >= p[i].first && p[j].second >= p[i].second &&
                  (p[j].first > p[i].first || p[j].second > p[i].second);
    }
    if (!dominated) out.push_back(i);
  }
  std::stable_sort(out.begin(), out.end(), [&](size_t a, size_t b) { return p[a].first < p[b].first; });
  return out;
}

std::vector<ParetoPoint> pareto(const std::vector<VariantRow>& rows) {
  std::vector<ParetoPoint> pts;
  std::vector<std::pair<double, double>> xy;
  for (auto& r : rows) {
    if (r.baseline || !r.usable || !known(r.speedup) || !known(r.memory_savings_pct)) continue;
    pts.push_back({r.target, r.variant, r.technique, r.speedup, r.memory_savings_pct, r.peak_mb, false});
    xy.push_back({r.speedup, r.memory_savings_pct});
  }
  for (size_t i : pareto_indices(xy)) pts[i].on_frontier = true;
  return pts;
}

std::vector<Tradeoff> tradeoffs(const std::vector<VariantRow>& rows) {
  std::vector<Tradeoff> out;
  for (auto& r : rows) {
    if (r.baseline || !r.usable || !known(r.speedup) || !known(r.memory_savings_pct)) continue;
    bool faster = known(r.ci_low) ? r.ci_low > 1.0 : r.speedup > 1.0;
    bool slower = known(r.ci_high) ? r.ci_high < 1.0 : r.speedup < 1.0;
    bool more_memory = r.memory_savings_pct < -kMemoryNoisePct;
    bool less_memory = r.memory_savings_pct > kMemoryNoisePct;
    Tradeoff t{r.target, r.variant, "", r.speedup, r.memory_savings_pct, ""};
    if (faster && more_memory) {
      t.kind = "faster, more memory";
      t.text = fmt::format("{:.3g}x faster for {:.1f}% more peak memory", r.speedup, -r.memory_savings_pct);
    } else if (slower && less_memory) {
      t.kind = "less memory, slower";
      t.text = fmt::format("{:.1f}% less peak memory at {:.3g}x the speed", r.memory_savings_pct, r.speedup);
    } else if (slower && more_memory) {
      t.kind = "worse on both";
      t.text = fmt::format("{:.3g}x the speed and {:.1f}% more peak memory: the baseline dominates", r.speedup,
                           -r.memory_savings_pct);
    } else {
      continue;
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Recommendation> recommendations(const std::vector<VariantRow>& rows, const std::string& goal) {
  std::vector<Recommendation> out;
  std::vector<std::string> targets;
  for (auto& r : rows)
    if (std::find(targets.begin(), targets.end(), r.target) == targets.end()) targets.push_back(r.target);
  auto want = [&](const char* g) { return goal.empty() || goal == g || (goal == "throughput" && std::string(g) == "speed"); };
  for (auto& t : targets) {
    std::vector<const VariantRow*> v;
    for (auto& r : rows)
      if (r.target == t && r.usable) v.push_back(&r);
    if (v.empty()) {
      out.push_back({goal.empty() ? "any" : goal, t, "", "no usable measurement (every variant failed or is INVALID)"});
      continue;
    }
    if (want("speed")) {
      const VariantRow* best = nullptr;
      for (auto* r : v)
        if (!r->baseline && r->verdict == "FASTER" && (!best || r->ci_low > best->ci_low)) best = r;
      if (best)
        out.push_back({"speed", t, best->variant,
                       fmt::format("FASTER: {:.4g}x [{:.4g}, {:.4g}] (95% CI); {}", best->speedup, best->ci_low,
                                   best->ci_high, best->technique)});
      else
        out.push_back({"speed", t, "baseline", "keep the baseline: no variant's CI clears the minimum speedup"});
    }
    if (want("latency")) {
      const VariantRow* best = nullptr;
      for (auto* r : v)
        if (known(r->p99_ms) && (!best || r->p99_ms < best->p99_ms)) best = r;
      if (best)
        out.push_back({"latency", t, best->variant,
                       fmt::format("lowest p99: {:.4g} ms (median {:.4g} ms)", best->p99_ms, best->median_ms)});
    }
    if (want("memory")) {
      const VariantRow* best = nullptr;
      for (auto* r : v)
        if (known(r->peak_mb) && r->verdict != "SLOWER" && (!best || r->peak_mb < best->peak_mb)) best = r;
      if (best)
        out.push_back({"memory", t, best->variant,
                       fmt::format("lowest peak memory among variants that are not SLOWER: {}", mib(best->peak_mb))});
    }
  }
  return out;
}

Analysis analyze(const std::vector<TargetResult>& targets, const DerivationInputs& ctx, size_t top_n) {
  Analysis a;
  a.rows = variant_rows(targets, ctx);
  a.boards = leaderboards(a.rows, top_n);
  a.pareto = pareto(a.rows);
  a.tradeoffs = tradeoffs(a.rows);
  a.recommendations = recommendations(a.rows);
  std::set<std::string> precisions;
  for (auto& r : a.rows)
    if (!r.precision.empty()) precisions.insert(r.precision);
  if (!precisions.empty()) a.ceilings_note = roofline_ceilings(ctx.hardware, *precisions.begin());
  if (ctx.hardware.device.sm_count == 0)
    a.notes.push_back("no device facts (no manifest): % of roofline is not computed");
  else if (ctx.hardware.capabilities.is_null())
    a.notes.push_back("roofline ceilings from device properties (theoretical): no hardware_capabilities file for " +
                      (ctx.hardware.hardware_key.empty() ? std::string("this GPU") : ctx.hardware.hardware_key) +
                      " (run `aisp hw peak` on it to measure them)");
  else
    a.notes.push_back("roofline ceilings measured: " + ctx.hardware.capabilities_path);
  // Peak memory is device-wide usage above each worker's start (cudaMemGetInfo). Baseline and variant
  // workers are alive together (interleaved timing), so a worker can also see the other's allocations:
  // flag savings that a second copy of the variant's own buffers in the baseline's peak would explain.
  std::vector<std::string> suspect;
  for (auto& r : a.rows) {
    if (r.baseline || !known(r.memory_savings_pct) || r.memory_savings_pct <= kMemoryNoisePct) continue;
    for (auto& b : a.rows)
      if (b.baseline && b.target == r.target && known(b.peak_mb) && known(r.allocated_mb) && known(r.peak_mb) &&
          b.peak_mb >= r.peak_mb + r.allocated_mb * 0.9)
        suspect.push_back(fmt::format("{} {} ({:.0f}%: baseline {} vs {} + {} own buffers)", r.target, r.variant,
                                      r.memory_savings_pct, mib(b.peak_mb), mib(r.peak_mb), mib(r.allocated_mb)));
  }
  if (!suspect.empty())
    a.notes.push_back(fmt::format(
        "memory savings that may be measurement artefacts: in runs made before per-worker memory accounting "
        "(2026-11-23) peak memory was device-wide while the baseline and variant workers ran side by side, so the "
        "baseline's peak can include the variant's buffers: {}",
        fmt::join(suspect, "; ")));
  return a;
}

}  // namespace aisp::analysis
