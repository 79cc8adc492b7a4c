#include "core/result.hpp"

#include <map>

#include "core/json_fields.hpp"
#include "core/verdict.hpp"

namespace aisp {

namespace {

// Each record's keys, once for writing and reading (core/json_fields.hpp): f(key, member) per member.
constexpr auto summary_fields = [](auto& s, const auto& f) {
  f("iterations", s.n);
  f("mean_ms", s.mean);
  f("median_ms", s.median);
  f("std_ms", s.stdev);
  f("min_ms", s.min);
  f("max_ms", s.max);
  f("p10_ms", s.p10);
  f("p50_ms", s.p50);
  f("p90_ms", s.p90);
  f("p99_ms", s.p99);
  f("rel_noise", s.rel_noise);
};

constexpr auto verification_fields = [](auto& v, const auto& f) {
  f("passed", v.passed);
  f("compared", v.compared);
  f("mismatches", v.mismatches);
  f("unwritten", v.unwritten);
  f("location", v.first_mismatch);
  f("output", v.output);
  f("max_diff", v.max_abs_error);
  f("max_rel_diff", v.max_rel_error);
  f("rtol", v.rtol);
  f("atol", v.atol);
  f("tolerance_justification", v.tolerance_justification);
};

constexpr auto memory_fields = [](auto& m, const auto& f) {
  f("peak_mb", m.peak_mb);
  f("allocated_mb", m.allocated_mb);
  f("reserved_mb", m.reserved_mb);
};

constexpr auto goal_metric_fields = [](auto& g, const auto& f) {
  f("name", g.name);
  f("unit", g.unit);
  f("value", g.value);
  f("ci_low", g.ci_low);
  f("ci_high", g.ci_high);
  f("lower_is_better", g.lower_is_better);
};

constexpr auto trace_replicate_fields = [](auto& r, const auto& f) {
  f("static_seed", r.static_seed);
  f("metric", r.metric);
  f("speedup", r.speedup);
  f("ci_low", r.ci_low);
  f("ci_high", r.ci_high);
};

}  // namespace

json summary_to_json(const Summary& s) { return write_record(s, summary_fields); }

Summary summary_from_json(const json& j) { return read_record<Summary>(j, summary_fields); }

json to_json(const VariantResult& v) {
  json checks = json::array();
  for (auto& c : v.checks) checks.push_back({{"id", c.id}, {"name", c.name}, {"passed", c.passed}, {"detail", c.detail}});
  json j = {{"name", v.name},
            {"file", v.file},
            {"technique", v.technique},
            {"status", v.status},
            {"error", v.error.empty() ? json(nullptr) : json(v.error)},
            {"error_kind", v.error_kind},
            {"time_ms", v.timing.median},
            {"timing", summary_to_json(v.timing)},
            {"raw_times_ms", v.samples_ms},
            {"raw_wall_ms", v.wall_ms},
            {"discarded_samples", v.discarded},
            {"power_capped_samples", v.power_capped},
            {"warmup_iterations", v.warmup_runs},
            {"stop_reason", v.stop_reason},
            {"timing_note", v.timing_note},
            {"memory_mb", v.memory.peak_mb},
            {"memory", write_record(v.memory, memory_fields)},
            {"speedup", v.speedup},
            {"ci_low", v.ci_low},
            {"ci_high", v.ci_high},
            {"p_value", v.p_value},
            {"ci_process_spread", v.ci_process_spread.measured()
                                      ? json{{"sd_log", v.ci_process_spread.sd_log}, {"df", v.ci_process_spread.df}}
                                      : json(nullptr)},
            {"memory_savings_pct", v.memory_savings_pct},
            {"verdict", v.verdict},
            {"minimum_required_speedup", v.min_speedup},
            {"checks", checks},
            {"validity",
             {{"enabled", v.validity_enabled},
              {"audited_blocks", v.audited_blocks},
              {"audit_samples_ms", v.audit_samples_ms},
              {"audit_overhead_pct", v.audit_overhead_pct},
              {"timed_outputs_verified", v.timed_verified}}},
            {"informational", v.informational},
            {"harness_overhead_ms", v.harness_overhead_ms},
            {"telemetry", v.telemetry},
            {"energy", v.energy},
            {"log", v.log}};
  j["verification"] = v.verification ? write_record(*v.verification, verification_fields) : json(nullptr);
  j["goal_metric"] = v.goal_metric ? write_record(*v.goal_metric, goal_metric_fields) : json(nullptr);
  if (!v.latency_samples_ms.empty()) j["raw_latency_ms"] = v.latency_samples_ms;
  if (!v.trace_replicates.empty()) {
    j["trace_replicates"] = json::array();
    for (const TraceReplicate& r : v.trace_replicates) j["trace_replicates"].push_back(write_record(r, trace_replicate_fields));
  }
  return j;
}

VariantResult variant_from_json(const json& j) {
  VariantResult v;
  v.name = j.value("name", "");
  v.file = j.value("file", "");
  v.technique = j.value("technique", "");
  v.status = j.value("status", "");
  if (j.contains("error") && j["error"].is_string()) v.error = j["error"];
  v.error_kind = j.value("error_kind", "");
  if (j.contains("timing")) v.timing = summary_from_json(j["timing"]);
  v.samples_ms = j.value("raw_times_ms", std::vector<double>{});
  v.wall_ms = j.value("raw_wall_ms", std::vector<double>{});
  v.discarded = j.value("discarded_samples", int64_t{0});
  v.power_capped = j.value("power_capped_samples", int64_t{0});
  v.warmup_runs = j.value("warmup_iterations", int64_t{0});
  v.stop_reason = j.value("stop_reason", "");
  v.timing_note = j.value("timing_note", "");
  if (j.contains("validity") && j["validity"].is_object()) {
    const json& val = j["validity"];
    v.validity_enabled = val.value("enabled", true);
    v.audited_blocks = val.value("audited_blocks", int64_t{0});
    v.audit_samples_ms = val.value("audit_samples_ms", std::vector<double>{});
    v.audit_overhead_pct = val.value("audit_overhead_pct", 0.0);
    v.timed_verified = val.value("timed_outputs_verified", int64_t{0});
  }
  v.informational = j.value("informational", "");
  if (j.contains("harness_overhead_ms") && j["harness_overhead_ms"].is_object())
    v.harness_overhead_ms = j["harness_overhead_ms"];
  if (j.contains("telemetry") && j["telemetry"].is_object()) v.telemetry = j["telemetry"];
  if (j.contains("energy") && j["energy"].is_object()) v.energy = j["energy"];
  if (j.contains("memory")) v.memory = read_record<Memory>(j["memory"], memory_fields);
  if (j.contains("verification") && j["verification"].is_object())
    v.verification = read_record<Verification>(j["verification"], verification_fields);
  v.speedup = j.value("speedup", 0.0);
  v.ci_low = j.value("ci_low", 0.0);
  v.ci_high = j.value("ci_high", 0.0);
  v.p_value = j.value("p_value", 1.0);
  if (j.contains("ci_process_spread") && j["ci_process_spread"].is_object())
    v.ci_process_spread = {j["ci_process_spread"].value("sd_log", 0.0), j["ci_process_spread"].value("df", 0)};
  v.memory_savings_pct = j.value("memory_savings_pct", 0.0);
  v.verdict = j.value("verdict", "");
  v.min_speedup = j.value("minimum_required_speedup", 0.0);
  for (auto& c : j.value("checks", json::array()))
    v.checks.push_back({c.value("id", ""), c.value("name", ""), c.value("passed", false), c.value("detail", "")});
  v.log = j.value("log", "");
  if (j.contains("goal_metric") && j["goal_metric"].is_object())
    v.goal_metric = read_record<GoalMetric>(j["goal_metric"], goal_metric_fields);
  v.latency_samples_ms = j.value("raw_latency_ms", std::vector<double>{});
  for (const json& r : j.value("trace_replicates", json::array()))
    v.trace_replicates.push_back(read_record<TraceReplicate>(r, trace_replicate_fields));
  return v;
}

json to_json(const TargetResult& t) {
  json opts = json::array();
  for (auto& o : t.optimizations) opts.push_back(to_json(o));
  const VariantResult& b = t.baseline;
  return {{"target", t.id},
          {"chapter", t.chapter},
          {"example", t.example},
          {"type", "cuda"},
          {"baseline_file", b.file},
          {"baseline_time_ms", b.timing.median},
          {"baseline_p90_ms", b.timing.p90},
          {"baseline_memory_mb", b.memory.peak_mb},
          {"baseline", to_json(b)},
          {"optimizations", opts},
          {"best_speedup", t.best_speedup},
          {"best_optimization", t.best_optimization},
          {"best_memory_savings_pct", t.best_memory_savings_pct},
          {"optimization_goal", t.goal},
          {"minimum_required_speedup", t.minimum_required_speedup},
          {"status", t.status},
          {"error", t.error.empty() ? json(nullptr) : json(t.error)},
          {"workload", t.workload},
          {"mode", t.mode},
          {"seeds", t.seeds},
          {"expectation", t.expectation},
          {"tolerance", t.tolerance},
          {"phase_seconds", t.phase_seconds}};
}

TargetResult target_from_json(const json& j) {
  TargetResult t;
  t.id = j.value("target", "");
  t.chapter = j.value("chapter", "");
  t.example = j.value("example", "");
  t.baseline = variant_from_json(j.at("baseline"));
  for (auto& o : j.value("optimizations", json::array())) t.optimizations.push_back(variant_from_json(o));
  t.best_speedup = j.value("best_speedup", 0.0);
  t.best_optimization = j.value("best_optimization", "");
  t.best_memory_savings_pct = j.value("best_memory_savings_pct", 0.0);
  t.goal = j.value("optimization_goal", "speed");
  t.minimum_required_speedup = j.value("minimum_required_speedup", 0.0);
  t.status = j.value("status", "");
  if (j.contains("error") && j["error"].is_string()) t.error = j["error"];
  t.workload = j.value("workload", json::object());
  t.mode = j.value("mode", "");
  t.seeds = j.value("seeds", std::vector<uint64_t>{});
  if (j.contains("expectation")) t.expectation = j["expectation"];
  if (j.contains("tolerance")) t.tolerance = j["tolerance"];
  if (j.contains("phase_seconds") && j["phase_seconds"].is_object()) t.phase_seconds = j["phase_seconds"];
  return t;
}

json results_document(const std::vector<TargetResult>& targets, const std::string& timestamp) {
  std::map<std::string, std::vector<const TargetResult*>> by_chapter;
  for (auto& t : targets) by_chapter[t.chapter].push_back(&t);
  json results = json::array();
  for (auto& [chapter, list] : by_chapter) {
    json benchmarks = json::array();
    std::map<std::string, int> counts;
    double sum = 0, maxs = 0, mins = 0;
    int nspeed = 0;
    for (auto* t : list) {
      benchmarks.push_back(to_json(*t));
      counts[t->status]++;
      if (t->best_speedup > 0) {
        sum += t->best_speedup;
        maxs = nspeed ? std::max(maxs, t->best_speedup) : t->best_speedup;
        mins = nspeed ? std::min(mins, t->best_speedup) : t->best_speedup;
        ++nspeed;
      }
    }
    int total = static_cast<int>(list.size());
    json summary = {{"total_benchmarks", total},
                    {"successful", counts[status::succeeded]},
                    {"failed", total - counts[status::succeeded] - counts[status::skipped]},
                    {"failed_error", counts[status::failed_error]},
                    {"failed_verification", counts[status::failed_verification]},
                    {"failed_regression", counts[status::failed_regression]},
                    {"failed_no_speedup", counts[status::failed_no_speedup]},
                    {"invalid", counts[status::invalid]},
                    {"total_skipped", counts[status::skipped]},
                    {"total_speedups", nspeed},
                    {"average_speedup", nspeed ? sum / nspeed : 0.0},
                    {"max_speedup", maxs},
                    {"min_speedup", mins}};
    results.push_back({{"chapter", chapter}, {"status", "completed"}, {"benchmarks", benchmarks}, {"summary", summary}});
  }
  return {{"schema_version", 1}, {"timestamp", timestamp}, {"results", results}};
}

std::vector<TargetResult> targets_from_document(const json& doc) {
  std::vector<TargetResult> out;
  for (auto& chapter : doc.at("results"))
    for (auto& b : chapter.at("benchmarks")) out.push_back(target_from_json(b));
  return out;
}

}  // namespace aisp
