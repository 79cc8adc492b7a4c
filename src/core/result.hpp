// The result model of one bench run, and its JSON form (`results/benchmark_test_results.json`). Field
// names follow the seed where it has them (example, baseline_time_ms, optimizations[].time_ms, speedup,
// best_speedup, status ...); ours are added beside them (ci_low/ci_high, verdict, checks[]).
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/stats.hpp"

namespace aisp {

using json = nlohmann::json;

struct CheckResult {
  std::string id;    // "K1", "K2", ... (docs/VALIDITY.md)
  std::string name;  // "poisoned outputs fully written"
  bool passed = true;
  std::string detail;
};

struct Verification {
  bool passed = false;
  int64_t compared = 0, mismatches = 0, unwritten = 0;
  int64_t first_mismatch = -1;
  std::string output;  // which output failed first
  double first_baseline = 0, first_variant = 0;  // the two values at first_mismatch
  double max_abs_error = 0, max_rel_error = 0, rtol = 0, atol = 0;
  std::string tolerance_justification;  // non-empty only when a pair loosened the default
};

struct Memory {
  double peak_mb = 0, allocated_mb = 0, reserved_mb = 0;
};

// The statistic a throughput or latency goal is judged by, in its unit (issue 24): this variant's median
// over its kept samples with a 95% bootstrap interval. Latency: the benchmark's percentile of one run's
// request latencies (a run = one pass over the request trace), so the median is over runs.
struct GoalMetric {
  std::string name, unit;  // "p99 request latency", "ms" | "throughput", "tokens/s"
  double value = 0, ci_low = 0, ci_high = 0;
  bool lower_is_better = false;
};

// One request trace's run of a latency comparison (runner/trace_replicates.hpp): the variant's goal metric
// on that trace and, for an optimized variant, its speedup with the run's own interval.
struct TraceReplicate {
  uint64_t static_seed = 0;                     // the seed the trace was drawn from
  double metric = 0;                            // the goal metric's value on this trace (ms for a latency goal)
  double speedup = 0, ci_low = 0, ci_high = 0;  // optimized variants only
};

struct VariantResult {
  std::string name;  // "baseline" or the optimized variant name
  std::string file;
  std::string technique;
  std::string status;  // seed status word
  std::string error;   // reason when not succeeded (crash signal, timeout, CUDA error ...)
  std::string error_kind;  // crashed | timeout | oom | cuda | exception | load | arch | symbol | workload | ...
  Summary timing;           // over kept samples, ms
  std::vector<double> samples_ms, wall_ms;
  int64_t discarded = 0;    // throttled samples dropped
  int64_t power_capped = 0;  // kept samples taken at the software power cap (runner/sample_clock_rule.hpp)
  int64_t warmup_runs = 0;
  std::string stop_reason, timing_note;
  Memory memory;
  std::optional<Verification> verification;  // optimized variants only
  // Versus the baseline (optimized variants only).
  double speedup = 0, ci_low = 0, ci_high = 0, p_value = 1;
  ProcessSpread ci_process_spread;  // the between-process spread the CI was widened by (none: not widened)
  double memory_savings_pct = 0;
  std::string verdict;
  std::vector<CheckResult> checks;
  // Validity machinery: audited blocks are timed like the others but kept out of the statistics.
  bool validity_enabled = true;
  int64_t audited_blocks = 0, timed_verified = 0;
  std::vector<double> audit_samples_ms;
  double audit_overhead_pct = 0;  // median of audited samples vs kept samples
  // Worker host time per timed sample spent outside the timed window, summed over all blocks:
  // {"samples", "input_refill", "l2_flush", "nvml", "drain"} (ms). Explains wall time, never enters the statistics.
  json harness_overhead_ms = json::object();
  // NVML read around every timed block (not per sample: each query costs ~0.7 ms in a VM), one value per
  // block: "power_w", "temp_c", "mem_mhz", "energy_mj" (counter delta), "block_wall_ms", "block_gpu_ms".
  json telemetry = json::object();
  // From those blocks, when the GPU reports energy: {"joules", "wall_s", "gpu_busy_s", "mean_power_w",
  // "joules_per_run", "method"}; null otherwise. See docs/result-schema.md for what the estimate includes.
  json energy = nullptr;
  double min_speedup = 0;
  // The author's reason why this variant may not win on every machine (Benchmark::informational()); a
  // verdict other than FASTER then leaves the status succeeded.
  std::string informational;
  std::string log;  // path of the worker's stdout/stderr log
  std::optional<GoalMetric> goal_metric;  // throughput and latency goals
  std::vector<double> latency_samples_ms;  // Goal::latency: per kept sample, the run's request-latency percentile
  // A verdict pooled over several request traces: each trace's own run, in order (empty: one run).
  std::vector<TraceReplicate> trace_replicates;
};

struct TargetResult {
  std::string id, chapter, example, goal = "speed", status, error;
  json workload;
  std::string mode;
  VariantResult baseline;
  std::vector<VariantResult> optimizations;
  double best_speedup = 0, best_memory_savings_pct = 0, minimum_required_speedup = 0;
  std::string best_optimization;
  std::vector<uint64_t> seeds;
  json expectation;  // null, or the comparison with this hardware's expectation (core/expectation_check)
  // The pair's effective output tolerance, used for every comparison of every variant (K2, K21):
  // {"rtol", "atol" (< 0: the output dtype's default), "justification", "source"}; null before load.
  json tolerance;
  // Supervisor wall seconds per phase (load, setup, verify, replay, warmup, timing, wrap_up): where a
  // target's run time went, so a slow suite can be explained without a profiler.
  json phase_seconds = json::object();
};

json to_json(const VariantResult& v);
VariantResult variant_from_json(const json& j);
json to_json(const TargetResult& t);
TargetResult target_from_json(const json& j);
json summary_to_json(const Summary& s);
Summary summary_from_json(const json& j);

// {"timestamp", "results": [ {chapter, status, benchmarks: [...], summary: {...}} ]}: the seed's layout.
json results_document(const std::vector<TargetResult>& targets, const std::string& timestamp);
std::vector<TargetResult> targets_from_document(const json& doc);

}  // namespace aisp
