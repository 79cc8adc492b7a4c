// `bench report --format md` and `bench export --format csv`: the same figures as the HTML report in
// plain text forms (no charts).
#include <fmt/format.h>

#include "analysis/analysis.hpp"
#include "report/analysis_report.hpp"

namespace aisp::report {
using namespace analysis;  // this file prints analysis results: their types read better unqualified
namespace {

std::string num(double v, const char* f = "{:.3g}") { return known(v) ? fmt::format(fmt::runtime(f), v) : "-"; }

std::string md_escape(std::string s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string csv_num(double v) { return known(v) ? fmt::format("{:.9g}", v) : ""; }

}  // namespace

std::string render_markdown(const Dataset& d, const ReportOptions& o) {
  DerivationInputs ctx = derivation_inputs(d);
  const RunData& run = d.current();
  Analysis a = analyze(run.targets, ctx, o.top_n);
  std::string m = "# " + o.title + "\n\n";
  m += fmt::format("Run `{}` from {}; GPU {} (`{}`), mode `{}`.\n\n", run.key, d.source,
                   d.hardware.gpu_model.empty() ? "unknown" : d.hardware.gpu_model,
                   d.hardware.hardware_key.empty() ? "-" : d.hardware.hardware_key,
                   run.mode.empty() ? "-" : run.mode);
  for (auto& n : a.notes) m += "> " + n + "\n>\n";
  m += "\n## Results\n\n| target | variant | verdict | median ms | speedup [95% CI] | peak MiB | GB/s | TFLOP/s | % roofline |\n"
       "|---|---|---|---:|---|---:|---:|---:|---:|\n";
  for (auto& r : a.rows)
    m += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.target, md_escape(r.variant),
                     r.baseline ? "-" : (r.verdict.empty() ? "-" : r.verdict), num(r.median_ms, "{:.4g}"),
                     r.baseline ? "-" : fmt::format("{}x [{}, {}]", num(r.speedup, "{:.3f}"), num(r.ci_low, "{:.3f}"),
                                                    num(r.ci_high, "{:.3f}")),
                     num(r.peak_mb, "{:.0f}"), known(r.bytes_per_s) ? num(r.bytes_per_s / 1e9, "{:.1f}") : "-",
                     known(r.flops_per_s) ? num(r.flops_per_s / 1e12, "{:.2f}") : "-", num(r.roofline_pct, "{:.1f}"));
  auto board = [&](const char* title, const std::vector<LeaderboardEntry>& v) {
    m += fmt::format("\n### {}\n\n", title);
    if (v.empty()) {
      m += "nothing to rank\n";
      return;
    }
    for (size_t i = 0; i < v.size(); ++i)
      m += fmt::format("{}. {} / {}: {}{} {}{}\n", i + 1, v[i].target, v[i].variant, num(v[i].value, "{:.4g}"),
                       v[i].unit == "x" || v[i].unit == "%" ? v[i].unit : " " + v[i].unit,
                       known(v[i].low) ? fmt::format("[{:.4g}, {:.4g}]", v[i].low, v[i].high) : "",
                       v[i].detail.empty() ? "" : " (" + v[i].detail + ")");
  };
  m += "\n## Leaderboards\n";
  board("Speedup (ranked by CI lower end)", a.boards.speed);
  board("Peak-memory saving", a.boards.memory);
  board("Throughput", a.boards.throughput);
  board("% of roofline", a.boards.roofline);
  m += "\n## Pareto frontier (speedup vs memory saving)\n\n";
  for (auto& p : a.pareto)
    if (p.on_frontier) m += fmt::format("- {} / {}: {:.3g}x, {:.1f}% less peak memory\n", p.target, p.variant, p.speedup, p.memory_savings_pct);
  if (!a.tradeoffs.empty()) {
    m += "\n## Trade-offs\n\n";
    for (auto& t : a.tradeoffs) m += fmt::format("- {} / {}: {}\n", t.target, t.variant, t.text);
  }
  m += "\n## Recommendations\n\n";
  for (auto& r : a.recommendations) m += fmt::format("- {} [{}]: {} — {}\n", r.target, r.goal, r.variant, r.why);
  Power p = power(a.rows);
  m += "\n## Power\n\n";
  for (auto& r : p.rows)
    if (r.energy.present) m += fmt::format("- {} / {}: {:.4g} J/run, {} W\n", r.target, r.variant, r.energy.joules_per_run, num(r.energy.avg_power_w, "{:.0f}"));
  for (auto& n : p.notes) m += "- " + n + "\n";
  Scaling s = scaling(d.runs);
  m += "\n## Scaling\n\n";
  for (auto& x : s.series)
    m += fmt::format("- {} / {} along {}: {:+.3g} speedup per doubling ({}), {} points\n", x.target, x.variant, x.axis,
                     x.speedup_per_doubling, x.trend, x.points.size());
  for (auto& n : s.notes) m += "- " + n + "\n";
  return m;
}

std::string render_csv(const std::vector<VariantRow>& rows) {
  std::string c = "target,variant,baseline,usable,status,verdict,technique,precision,median_ms,p99_ms,rel_noise,samples,"
                  "speedup,ci_low,ci_high,peak_mb,memory_savings_pct,items_per_s,item_unit,bytes_per_s,flops_per_s,"
                  "arithmetic_intensity,roofline_pct,bound,joules_per_run,avg_power_w\n";
  for (auto& r : rows)
    c += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.target),
                     csv_field(r.variant), r.baseline ? 1 : 0, r.usable ? 1 : 0, csv_field(r.status), csv_field(r.verdict),
                     csv_field(r.technique), csv_field(r.precision), csv_num(r.median_ms), csv_num(r.p99_ms),
                     csv_num(r.rel_noise), r.samples, csv_num(r.speedup), csv_num(r.ci_low), csv_num(r.ci_high),
                     csv_num(r.peak_mb), csv_num(r.memory_savings_pct), csv_num(r.items_per_s), csv_field(r.item_unit),
                     csv_num(r.bytes_per_s), csv_num(r.flops_per_s), csv_num(r.arithmetic_intensity),
                     csv_num(r.roofline_pct), csv_field(r.bound), csv_num(r.energy.joules_per_run),
                     csv_num(r.energy.avg_power_w));
  return c;
}

}  // namespace aisp::report
