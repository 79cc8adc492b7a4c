#include "serve/result_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/verdict.hpp"
#include "serve/store_view.hpp"

namespace aisp::serve {

json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

namespace {

json positive(double v) { return std::isfinite(v) && v > 0 ? json(v) : json(nullptr); }

double workload_number(const json& w, const char* key) {
  return w.is_object() && w.contains(key) && w[key].is_number() ? w[key].get<double>() : std::nan("");
}

bool measured(const VariantResult& v) { return v.timing.n > 0 && v.timing.median > 0; }

json change_json(const std::optional<ChangePoint>& c) {
  if (!c) return nullptr;
  return {{"before_ms", num(c->before)}, {"after_ms", num(c->after)}, {"rel_shift", num(c->rel_shift)},
          {"statistic", num(c->statistic)}};
}

}  // namespace

json run_json(const RunInfo& r) {
  return {{"id", r.id},
          {"key", r.key},
          {"stamp", r.stamp},
          {"label", r.label},
          {"kind", r.kind},
          {"mode", r.mode},
          {"started_at", r.started_at},
          {"ended_at", r.ended_at},
          {"git_commit", r.git_commit},
          {"git_branch", r.git_branch},
          {"git_dirty", r.git_dirty},
          {"hardware_key", r.hardware_key},
          {"gpu_model", r.gpu_model},
          {"complete", r.complete},
          {"calibration", is_calibration(r)},
          {"targets", r.targets}};
}

namespace {

const VariantResult* best_variant(const TargetResult& t) {
  for (auto& o : t.optimizations)
    if (o.name == t.best_optimization) return &o;
  return t.optimizations.empty() ? nullptr : &t.optimizations.front();
}

double expectation_number(const json& e, const char* key) {
  return e.is_object() && e.contains(key) && e[key].is_number() ? e[key].get<double>() : std::nan("");
}

}  // namespace

// The badge is decided by the target's status first, the best variant's verdict second: a target whose
// status is a failure never shows a verdict that reads as success (a failed_regression target whose
// variant is still faster than its baseline is a REGRESSION, not a green FASTER).
std::string badge_for(const std::string& st, const std::string& verdict) {
  if (st == status::invalid) return "INVALID";
  if (st == status::skipped) return "SKIPPED";
  if (st == status::failed_error || st == status::failed_verification) return "FAILED";
  if (st == status::failed_regression) return "REGRESSION";
  if (st == status::failed_no_speedup) {
    // Faster than the baseline but short of the required speedup: a failure, shown as one.
    if (verdict.empty() || verdict == "FASTER") return "MISSED";
    return verdict;  // SAME, SLOWER, INCONCLUSIVE: already not green
  }
  if (st != status::succeeded) return "FAILED";  // an unknown status word: never green
  return verdict.empty() ? "NONE" : verdict;
}

std::string target_badge(const TargetResult& t) {
  const VariantResult* best = best_variant(t);
  return badge_for(t.status, best ? best->verdict : "");
}

std::string target_reason(const TargetResult& t) {
  auto first_failed_check = [&]() -> std::string {
    std::vector<const VariantResult*> all = {&t.baseline};
    for (auto& o : t.optimizations) all.push_back(&o);
    for (auto* v : all) {
      if (!v->error.empty()) return v->name + ": " + v->error;
      for (auto& c : v->checks)
        if (!c.passed) return fmt::format("{}: check {} {} failed: {}", v->name, c.id, c.name, c.detail);
    }
    return "";
  };
  const json& e = t.expectation;
  std::string expectation_message = e.is_object() ? e.value("message", "") : "";
  bool expectation_regressed = e.is_object() && e.value("status", "") == "regression";
  if (t.status == status::failed_regression)
    return !expectation_message.empty() ? "expectation missed: " + expectation_message : "regression against the stored expectation";
  if (t.status == status::failed_error || t.status == status::failed_verification || t.status == status::invalid ||
      t.status == status::skipped) {
    if (!t.error.empty()) return t.error;
    std::string c = first_failed_check();
    return !c.empty() ? c : t.status;
  }
  if (t.status == status::failed_no_speedup) {
    const VariantResult* best = best_variant(t);
    if (best && best->speedup > 0 && t.minimum_required_speedup > 0)
      return fmt::format("best speedup {:.3f}x [{:.3f}, {:.3f}] does not reach the required {:.2f}x", best->speedup,
                         best->ci_low, best->ci_high, t.minimum_required_speedup);
    return !t.error.empty() ? t.error : "no speedup";
  }
  if (expectation_regressed) return "expectation missed: " + expectation_message;
  return "";
}

json variant_json(const VariantResult& v, bool baseline, const json& workload) {
  json failed = json::array();
  int64_t passed = 0;
  for (auto& c : v.checks) {
    if (c.passed) ++passed;
    else failed.push_back({{"id", c.id}, {"name", c.name}, {"detail", c.detail}});
  }
  bool has_time = measured(v);
  double seconds = has_time ? v.timing.median / 1e3 : std::nan("");
  double bytes = workload_number(workload, "bytes"), flops = workload_number(workload, "flops");
  json j = {{"name", v.name},
            {"technique", v.technique},
            {"status", v.status},
            {"verdict", baseline ? json(nullptr) : json(v.verdict)},
            {"error", v.error.empty() ? json(nullptr) : json(v.error)},
            {"error_kind", v.error_kind.empty() ? json(nullptr) : json(v.error_kind)},
            {"samples", v.timing.n},
            {"discarded", v.discarded},
            {"median_ms", has_time ? num(v.timing.median) : json(nullptr)},
            {"mean_ms", has_time ? num(v.timing.mean) : json(nullptr)},
            {"p10_ms", has_time ? num(v.timing.p10) : json(nullptr)},
            {"p90_ms", has_time ? num(v.timing.p90) : json(nullptr)},
            {"p99_ms", has_time ? num(v.timing.p99) : json(nullptr)},
            {"min_ms", has_time ? num(v.timing.min) : json(nullptr)},
            {"rel_noise", has_time ? num(v.timing.rel_noise) : json(nullptr)},
            {"peak_memory_mb", positive(v.memory.peak_mb)},
            {"stop_reason", v.stop_reason},
            {"timing_note", v.timing_note},
            {"checks_passed", passed},
            {"checks_failed", failed},
            // Achieved rates from the workload's declared minimum traffic and FLOPs per run().
            {"achieved_gbs", positive(bytes / seconds / 1e9)},
            {"achieved_tflops", positive(flops / seconds / 1e12)}};
  // A throughput or latency goal's own statistic, in its unit (issue 24); null for speed and memory.
  j["goal_metric"] = v.goal_metric ? json{{"name", v.goal_metric->name}, {"unit", v.goal_metric->unit},
                                          {"value", num(v.goal_metric->value)}, {"ci_low", num(v.goal_metric->ci_low)},
                                          {"ci_high", num(v.goal_metric->ci_high)},
                                          {"lower_is_better", v.goal_metric->lower_is_better}}
                                   : json(nullptr);
  if (!baseline) {
    bool compared = has_time && v.speedup > 0;
    j["speedup"] = compared ? num(v.speedup) : json(nullptr);
    j["ci_low"] = compared ? num(v.ci_low) : json(nullptr);
    j["ci_high"] = compared ? num(v.ci_high) : json(nullptr);
    j["p_value"] = compared ? num(v.p_value) : json(nullptr);
    j["memory_savings_pct"] = compared ? num(v.memory_savings_pct) : json(nullptr);
    j["minimum_required_speedup"] = positive(v.min_speedup);
  }
  return j;
}

json target_json(const TargetResult& t, bool with_samples) {
  json variants = json::array();
  auto one = [&](const VariantResult& v, bool baseline) {
    json j = variant_json(v, baseline, t.workload);
    if (with_samples) {
      j["samples_ms"] = v.samples_ms;
      json checks = json::array();
      for (auto& c : v.checks) checks.push_back({{"id", c.id}, {"name", c.name}, {"passed", c.passed}, {"detail", c.detail}});
      j["checks"] = checks;
      if (v.verification)
        j["verification"] = {{"passed", v.verification->passed}, {"compared", v.verification->compared},
                             {"mismatches", v.verification->mismatches}, {"max_abs_error", num(v.verification->max_abs_error)},
                             {"max_rel_error", num(v.verification->max_rel_error)}};
    }
    return j;
  };
  for (auto& o : t.optimizations) variants.push_back(one(o, false));
  json expectation = nullptr;
  if (t.expectation.is_object()) {
    const json& e = t.expectation;
    // What was expected and what came out, so a regression is shown with the number it missed.
    expectation = {{"status", e.value("status", "")}, {"message", e.value("message", "")},
                   {"variant", e.value("variant", "")},
                   {"expected_speedup", positive(expectation_number(e, "expected_speedup"))},
                   {"expected_ci_low", positive(expectation_number(e, "expected_ci_low"))},
                   {"expected_ci_high", positive(expectation_number(e, "expected_ci_high"))},
                   {"tolerance", num(expectation_number(e, "tolerance"))}};
  }
  return {{"target", t.id},
          {"chapter", t.chapter},
          {"example", t.example},
          {"goal", t.goal},
          {"mode", t.mode},
          {"status", t.status},
          {"badge", target_badge(t)},
          // Why a target failed or regressed, in one line (empty when it did not): shown inline.
          {"reason", target_reason(t).empty() ? json(nullptr) : json(target_reason(t))},
          {"error", t.error.empty() ? json(nullptr) : json(t.error)},
          {"best_optimization", t.best_optimization.empty() ? json(nullptr) : json(t.best_optimization)},
          {"best_speedup", positive(t.best_speedup)},
          {"best_memory_savings_pct", num(t.best_memory_savings_pct)},
          {"minimum_required_speedup", positive(t.minimum_required_speedup)},
          {"workload", t.workload.is_null() ? json::object() : t.workload},
          // The pair's effective output tolerance (K23), used for every comparison of every variant.
          {"tolerance", t.tolerance.is_object() ? t.tolerance : json(nullptr)},
          {"expectation", expectation},
          {"baseline", one(t.baseline, true)},
          {"variants", variants}};
}

json history_row_json(const HistoryRow& r) {
  return {{"run", run_json(r.run)},
          {"variant", r.variant},
          {"status", r.status},
          {"verdict", r.verdict},
          {"badge", badge_for(r.status, r.verdict)},
          {"baseline_ms", positive(r.baseline_ms)},
          {"baseline_low_ms", positive(r.baseline_low)},
          {"baseline_high_ms", positive(r.baseline_high)},
          {"variant_ms", positive(r.variant_ms)},
          {"variant_low_ms", positive(r.variant_low)},
          {"variant_high_ms", positive(r.variant_high)},
          {"speedup", positive(r.speedup)},
          {"ci_low", positive(r.ci_low)},
          {"ci_high", positive(r.ci_high)},
          {"baseline_change", change_json(r.baseline_change)},
          {"variant_change", change_json(r.variant_change)}};
}

json compare_row_json(const CompareRow& r) {
  return {{"target", r.target},
          {"variant", r.variant},
          {"in_baseline", r.in_a},
          {"in_candidate", r.in_b},
          {"baseline_ms", positive(r.a_ms)},
          {"baseline_low_ms", positive(r.a_low)},
          {"baseline_high_ms", positive(r.a_high)},
          {"candidate_ms", positive(r.b_ms)},
          {"candidate_low_ms", positive(r.b_low)},
          {"candidate_high_ms", positive(r.b_high)},
          {"ratio", num(r.ratio)},
          {"speedup", num(r.speedup)},
          {"ci_low", num(r.ci_low)},
          {"ci_high", num(r.ci_high)},
          // A target in one run only has nothing to test: no p-value rather than the default 1.
          {"p_value", r.in_a && r.in_b ? num(r.p_value) : json(nullptr)},
          {"ci_overlap", r.in_a && r.in_b ? json(r.ci_overlap) : json(nullptr)},
          {"change", r.change}};
}

}  // namespace aisp::serve
