#include "report/text_reports.hpp"

#include <fmt/format.h>

namespace aisp {
namespace {

std::string fmt_ms(double ms) {
  if (ms <= 0) return "-";
  if (ms < 0.01) return fmt::format("{:.2f} µs", ms * 1000);
  if (ms < 1) return fmt::format("{:.1f} µs", ms * 1000);
  return fmt::format("{:.3f} ms", ms);
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

// The pair's effective tolerance (TargetResult::tolerance): "dtype default" or "rtol 1e-05, atol 0.00195".
std::string tolerance_cell(const json& t) {
  if (!t.is_object()) return "-";
  double rtol = t.value("rtol", -1.0), atol = t.value("atol", -1.0);
  if (rtol < 0 && atol < 0) return "dtype default";
  auto part = [](double v) { return v < 0 ? std::string("default") : fmt::format("{:g}", v); };
  return fmt::format("rtol {}, atol {}", part(rtol), part(atol));
}

}  // namespace

std::string markdown_report(const std::vector<TargetResult>& targets, const json& manifest) {
  std::string md = "# aisp bench results\n\n";
  if (manifest.contains("hardware")) {
    auto& h = manifest["hardware"];
    md += fmt::format("GPU: {} ({}), driver {}, CUDA {}; mode `{}`.\n\n", h.value("gpu_model", "?"),
                      h.value("compute_capability", "?"), h.value("driver_version", "?"), h.value("cuda_version", "?"),
                      manifest.value("mode", "cold"));
  }
  for (auto& w : manifest.value("warnings", json::array())) md += fmt::format("> warning: {}\n", w.get<std::string>());
  md += "\n| target | variant | status | verdict | median | speedup [95% CI] | noise | n | peak MiB | checks | tolerance |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::string notes, goals;
  for (auto& t : targets) {
    auto row = [&](const VariantResult& v, bool is_base) {
      // Throughput and latency goals in their unit; for a latency goal the speedup column is the ratio of
      // the baseline's latency to the variant's (what the verdict judged).
      if (const auto& g = v.goal_metric)
        goals += fmt::format("| {} | {} | {} | {:.4g} {} [{:.4g}, {:.4g}] | {} |\n", t.id, v.name, g->name, g->value,
                             g->unit, g->ci_low, g->ci_high, g->lower_is_better ? "lower is better" : "higher is better");
      int failed = 0;
      for (auto& c : v.checks) failed += !c.passed;
      std::string checks = v.checks.empty() ? "-" : fmt::format("{}/{} passed", v.checks.size() - failed, v.checks.size());
      std::string speed = is_base || v.speedup <= 0 ? "-" : fmt::format("{:.3f}x [{:.3f}, {:.3f}]", v.speedup, v.ci_low, v.ci_high);
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} | {} |\n", t.id, v.name, v.status,
                        v.verdict.empty() ? "-" : v.verdict, fmt_ms(v.timing.median), speed,
                        v.timing.n ? fmt::format("{:.2f}%", 100 * v.timing.rel_noise) : "-", v.timing.n,
                        v.memory.peak_mb, checks, tolerance_cell(t.tolerance));
      if (!v.error.empty()) notes += fmt::format("- `{}` {}: {}\n", t.id, v.name, v.error);
      if (!v.timing_note.empty()) notes += fmt::format("- `{}` {}: {}\n", t.id, v.name, v.timing_note);
      if (v.verification && !v.verification->tolerance_justification.empty())
        notes += fmt::format("- `{}` {}: tolerance loosened to rtol {:g} / atol {:g}: {}\n", t.id, v.name,
                             v.verification->rtol, v.verification->atol, v.verification->tolerance_justification);
      for (auto& c : v.checks)
        if (!c.passed) notes += fmt::format("- `{}` {}: check {} failed ({}): {}\n", t.id, v.name, c.id, c.name, c.detail);
    };
    row(t.baseline, true);
    for (auto& o : t.optimizations) row(o, false);
    if (!t.error.empty()) notes += fmt::format("- `{}`: {}\n", t.id, t.error);
  }
  if (!goals.empty())
    md += "\n## Goals other than speed\n\n| target | variant | statistic | median [95% CI] | direction |\n"
          "|---|---|---|---|---|\n" + goals;
  if (!notes.empty()) md += "\n## Notes\n\n" + notes;
  return md;
}

std::string csv_report(const std::vector<TargetResult>& targets) {
  std::string csv = "target,chapter,example,variant,status,verdict,median_ms,mean_ms,p90_ms,stdev_ms,n,discarded,"
                    "speedup,ci_low,ci_high,p_value,peak_mb,memory_savings_pct,verification_passed,error,tolerance,"
                    "goal_statistic,goal_value,goal_ci_low,goal_ci_high,goal_unit\n";
  for (auto& t : targets) {
    auto row = [&](const VariantResult& v) {
      // Throughput / latency goals in their unit (empty cells for speed and memory goals).
      std::string goal = v.goal_metric ? fmt::format("{},{:.6g},{:.6g},{:.6g},{}", csv_escape(v.goal_metric->name),
                                                     v.goal_metric->value, v.goal_metric->ci_low,
                                                     v.goal_metric->ci_high, csv_escape(v.goal_metric->unit))
                                       : ",,,,";
      csv += fmt::format("{},{},{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{},{},{:.6g},{:.6g},{:.6g},{:.3g},{:.3f},{:.3f},{},{},{},{}\n",
                         t.id, t.chapter, t.example, v.name, v.status, v.verdict, v.timing.median, v.timing.mean,
                         v.timing.p90, v.timing.stdev, v.timing.n, v.discarded, v.speedup, v.ci_low, v.ci_high,
                         v.p_value, v.memory.peak_mb, v.memory_savings_pct,
                         v.verification ? (v.verification->passed ? "true" : "false") : "", csv_escape(v.error),
                         csv_escape(tolerance_cell(t.tolerance)), goal);
    };
    row(t.baseline);
    for (auto& o : t.optimizations) row(o);
  }
  return csv;
}

}  // namespace aisp
