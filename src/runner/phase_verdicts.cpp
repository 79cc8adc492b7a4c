// Phase 7: statistics and verdicts, all from raw samples, in the supervisor. Speedup = baseline median /
// variant median with a bootstrap 95% interval, widened by the between-process spread; the verdict from
// that interval against the variant's band; a variant that does not win fails unless it is informational.
#include <fmt/format.h>

#include <algorithm>

#include "core/stats.hpp"
#include "core/verdict.hpp"
#include "runner/target_run.hpp"
#include "runner/variant_goal.hpp"

namespace aisp {
namespace {

// The series a verdict is decided on: time per run, or for a latency goal each run's request-latency
// percentile (lower is better for both, so baseline / variant > 1 is a win either way).
const std::vector<double>& judged_series(const VariantResult& v, const std::string& goal) {
  return goal == "latency" ? v.latency_samples_ms : v.samples_ms;
}

}  // namespace

// Throughput in the workload's unit (items per run / time per run) or the latency percentile, each with
// its own 95% interval; nullopt for speed and memory goals, or without the samples it needs.
std::optional<GoalMetric> TargetRun::goal_metric_of(const VariantResult& v) const {
  if (out_.goal == "throughput" && base_workload_.items > 0 && !v.samples_ms.empty()) {
    Interval t = bootstrap_median_ci(v.samples_ms);
    double items = base_workload_.items;
    std::string unit = (base_workload_.item_unit.empty() ? std::string("items") : base_workload_.item_unit) + "/s";
    return GoalMetric{"throughput", unit, items / (t.point / 1e3), items / (t.high / 1e3), items / (t.low / 1e3), false};
  }
  if (out_.goal == "latency" && !v.latency_samples_ms.empty()) {
    Interval l = bootstrap_median_ci(v.latency_samples_ms);
    double p = live_[0].ready.value("latency_percentile", 99.0);
    return GoalMetric{fmt::format("p{:g} request latency", p), "ms", l.point, l.low, l.high, true};
  }
  return std::nullopt;
}

void TargetRun::decide_verdicts() {
  VariantResult& base = *live_[0].result;
  for (auto& l : live_) note_power_capped(*l.result);
  base.goal_metric = goal_metric_of(base);
  out_.minimum_required_speedup = target_min_speedup_;
  for (size_t i = 1; i < live_.size(); ++i) {
    VariantResult& v = *live_[i].result;
    if (v.status == status::invalid) v.verdict = verdict_name(Verdict::invalid);
    if (v.status != status::succeeded && v.status != status::invalid) continue;
    if (v.samples_ms.empty()) {
      if (v.status == status::succeeded)
        fail(live_[i], "timing", "no samples kept (all discarded: clock below 75% of max, or a thermal / hardware slowdown)");
      continue;
    }
    const std::vector<double>& judged_base = judged_series(base, out_.goal);
    const std::vector<double>& judged = judged_series(v, out_.goal);
    if (judged.empty() || judged_base.empty()) {
      if (v.status == status::succeeded)
        fail(live_[i], "timing", "latency goal without request latencies: declare a request trace "
                                 "(Context::request_trace) and time in cold or graph mode (hot batches runs)");
      continue;
    }
    v.goal_metric = goal_metric_of(v);
    double min_speedup = decision_band(live_[i]);
    // Differences inside this GPU's A/A noise floor are SAME, so a win must clear it too.
    if (min_speedup > (v.min_speedup > 0 ? v.min_speedup : target_min_speedup_))
      append_note(v.timing_note, fmt::format("decision band widened to {:.3f}x by the A/A noise floor", min_speedup));
    v.min_speedup = min_speedup;
    // The samples' own interval, widened by what one pair of processes cannot see (the between-process
    // spread this GPU's A/A calibration measured for the target), when there is one.
    Interval ci = widen_for_process_spread(bootstrap_speedup_ci(judged_base, judged), opt_.process_spread, 0.95);
    v.ci_process_spread = opt_.process_spread;
    v.speedup = ci.point;
    v.ci_low = ci.low;
    v.ci_high = ci.high;
    v.p_value = mann_whitney_p(base.samples_ms, v.samples_ms);
    if (base.memory.peak_mb > 0) v.memory_savings_pct = 100.0 * (base.memory.peak_mb - v.memory.peak_mb) / base.memory.peak_mb;
    bool any_failed = std::any_of(v.checks.begin(), v.checks.end(), [](auto& c) { return !c.passed; });
    Verdict verdict = decide_verdict(ci, min_speedup, any_failed || v.status == status::invalid, opt_.noise_floor);
    v.verdict = verdict_name(verdict);
    if (v.status == status::succeeded) apply_goal(v, verdict, ci, min_speedup, out_.goal == "memory");
    if (v.status != status::invalid && v.speedup > out_.best_speedup) {
      out_.best_speedup = v.speedup;
      out_.best_optimization = v.name;
    }
    out_.best_memory_savings_pct = std::max(out_.best_memory_savings_pct, v.memory_savings_pct);
  }
}

}  // namespace aisp
