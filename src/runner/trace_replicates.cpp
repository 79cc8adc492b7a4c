#include "runner/trace_replicates.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/replicate_pool.hpp"
#include "core/verdict.hpp"
#include "runner/target_runner.hpp"
#include "runner/variant_goal.hpp"

namespace aisp {
namespace {

// What a run decides on its own: an error, a failed verification or check. failed_no_speedup is not one of
// them: it is re-decided over the pooled interval.
bool run_failed(const VariantResult& v) {
  bool failed_check = std::any_of(v.checks.begin(), v.checks.end(), [](auto& c) { return !c.passed; });
  return failed_check || (v.status != status::succeeded && v.status != status::failed_no_speedup);
}

void append(std::vector<double>& into, const std::vector<double>& from) { into.insert(into.end(), from.begin(), from.end()); }

uint64_t static_seed_of(const TargetResult& run) { return run.seeds.empty() ? 0 : run.seeds[0]; }

// The variant's raw record over every trace: samples concatenated, counters summed; telemetry, energy and
// memory stay the first trace's (per-block and per-run numbers that do not depend on the trace).
VariantResult concatenated(const std::vector<const VariantResult*>& reps) {
  VariantResult v = *reps[0];
  v.samples_ms.clear(), v.wall_ms.clear(), v.latency_samples_ms.clear(), v.audit_samples_ms.clear();
  v.discarded = v.power_capped = v.warmup_runs = v.audited_blocks = v.timed_verified = 0;
  v.harness_overhead_ms = json::object();
  for (const VariantResult* r : reps) {
    append(v.samples_ms, r->samples_ms), append(v.wall_ms, r->wall_ms);
    append(v.latency_samples_ms, r->latency_samples_ms), append(v.audit_samples_ms, r->audit_samples_ms);
    v.discarded += r->discarded, v.power_capped += r->power_capped, v.warmup_runs += r->warmup_runs;
    v.audited_blocks += r->audited_blocks, v.timed_verified += r->timed_verified;
    for (auto& [key, ms] : r->harness_overhead_ms.items())
      if (ms.is_number()) v.harness_overhead_ms[key] = v.harness_overhead_ms.value(key, 0.0) + ms.get<double>();
  }
  v.timing = summarize(v.samples_ms);
  v.timing_note = without_verdict_clauses(reps[0]->timing_note);  // decided again over the pooled interval
  return v;
}

std::optional<GoalMetric> pooled_metric(const std::vector<const VariantResult*>& reps) {
  std::vector<Interval> values;
  for (const VariantResult* r : reps) {
    if (!r->goal_metric || !(r->goal_metric->value > 0 && r->goal_metric->ci_low > 0)) return std::nullopt;
    values.push_back({r->goal_metric->value, r->goal_metric->ci_low, r->goal_metric->ci_high});
  }
  GoalMetric g = *reps[0]->goal_metric;
  Interval p = pool_replicates(values).interval;
  g.value = p.point, g.ci_low = p.low, g.ci_high = p.high;
  return g;
}

std::vector<TraceReplicate> per_trace(const std::vector<const VariantResult*>& reps, const std::vector<TargetResult>& runs) {
  std::vector<TraceReplicate> out;
  for (size_t j = 0; j < reps.size(); ++j)
    out.push_back({static_seed_of(runs[j]), reps[j]->goal_metric ? reps[j]->goal_metric->value : 0.0, reps[j]->speedup,
                   reps[j]->ci_low, reps[j]->ci_high});
  return out;
}

// A variant that failed on some trace is that trace's result: its error, checks and numbers, named.
VariantResult failed_on_trace(const std::vector<const VariantResult*>& reps, const std::vector<TargetResult>& runs) {
  size_t worst = reps.size();
  for (size_t j = 0; j < reps.size(); ++j)
    if (run_failed(*reps[j]) &&
        (worst == reps.size() || status::severity(reps[j]->status) > status::severity(reps[worst]->status)))
      worst = j;
  VariantResult v = *reps[worst];
  std::string where = fmt::format("request trace {} of {}", worst + 1, reps.size());
  if (!v.error.empty()) v.error = where + ": " + v.error;
  append_note(v.timing_note,
              fmt::format("{} (static seed {}) decided this variant's status", where, static_seed_of(runs[worst])));
  v.trace_replicates = per_trace(reps, runs);
  return v;
}

// Speedup, interval, p-value, verdict and goal of a variant that ran on every trace.
VariantResult pooled_variant(const std::vector<const VariantResult*>& reps, const std::vector<TargetResult>& runs,
                             const VariantResult& base, const RunOptions& options) {
  VariantResult v = concatenated(reps);
  std::vector<Interval> speedups;
  std::string listed;
  for (const VariantResult* r : reps) {
    speedups.push_back({r->speedup, r->ci_low, r->ci_high});
    listed += fmt::format("{}{:.3f}x", listed.empty() ? "" : ", ", r->speedup);
    v.min_speedup = std::max(v.min_speedup, r->min_speedup);
  }
  PooledInterval p = pool_replicates(speedups);
  v.speedup = p.interval.point, v.ci_low = p.interval.low, v.ci_high = p.interval.high, v.p_value = p.p_value;
  v.ci_process_spread = {};  // separate processes per trace: their spread is inside the interval already
  v.goal_metric = pooled_metric(reps);
  v.trace_replicates = per_trace(reps, runs);
  if (base.memory.peak_mb > 0) v.memory_savings_pct = 100.0 * (base.memory.peak_mb - v.memory.peak_mb) / base.memory.peak_mb;
  append_note(v.timing_note, fmt::format("pooled over {} request traces (per trace: {}); the interval is from their "
                                         "spread (t, {} df), so it covers the choice of trace",
                                         reps.size(), listed, reps.size() - 1));
  note_power_capped(v);
  // Every check passed on every trace (a failure takes failed_on_trace's path).
  Verdict verdict = decide_verdict(p.interval, v.min_speedup, false, options.noise_floor);
  v.verdict = verdict_name(verdict);
  v.status = status::succeeded, v.error.clear();
  apply_goal(v, verdict, p.interval, v.min_speedup, false);
  return v;
}

}  // namespace

StoppingPolicy replicate_share(StoppingPolicy policy, int replicates) {
  if (replicates <= 1) return policy;
  policy.time_limit_s /= replicates;
  policy.min_gpu_time_s /= replicates;
  return policy;
}

bool wants_trace_replicates(const TargetResult& first, const RunOptions& options) {
  return options.trace_replicates > 1 && first.goal == "latency" && first.error.empty() &&
         first.baseline.status == status::succeeded && !first.baseline.latency_samples_ms.empty();
}

TargetResult pool_trace_replicates(const std::vector<TargetResult>& runs, const RunOptions& options) {
  TargetResult out = runs[0];
  if (runs.size() < 2) return out;
  out.seeds.clear();
  out.phase_seconds = json::object();
  std::vector<const VariantResult*> bases;
  for (const TargetResult& r : runs) {
    out.seeds.insert(out.seeds.end(), r.seeds.begin(), r.seeds.end());
    for (auto& [phase, s] : r.phase_seconds.items())
      out.phase_seconds[phase] = out.phase_seconds.value(phase, 0.0) + s.get<double>();
    bases.push_back(&r.baseline);
  }
  out.baseline = concatenated(bases);
  out.baseline.goal_metric = pooled_metric(bases);
  out.baseline.trace_replicates = per_trace(bases, runs);
  note_power_capped(out.baseline);
  out.best_speedup = 0, out.best_optimization.clear(), out.best_memory_savings_pct = 0;
  std::vector<std::string> statuses;
  for (size_t i = 0; i < out.optimizations.size(); ++i) {
    std::vector<const VariantResult*> reps;
    for (const TargetResult& r : runs) reps.push_back(&r.optimizations.at(i));
    bool failed = std::any_of(reps.begin(), reps.end(), [](auto* r) { return run_failed(*r); });
    VariantResult& v = out.optimizations[i] =
        failed ? failed_on_trace(reps, runs) : pooled_variant(reps, runs, out.baseline, options);
    statuses.push_back(v.status);
    if (v.status != status::invalid && v.speedup > out.best_speedup)
      out.best_speedup = v.speedup, out.best_optimization = v.name;
    out.best_memory_savings_pct = std::max(out.best_memory_savings_pct, v.memory_savings_pct);
  }
  out.status = target_status(statuses);
  return out;
}

}  // namespace aisp
