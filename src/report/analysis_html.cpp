// `bench report --format html`: one self-contained file (inline CSS + SVG, no script, no external
// resource) with the run's verdicts, speedup bars with CI whiskers, the Pareto scatter, the roofline,
// achieved bandwidth, history sparklines, leaderboards, power, cost, stacking and scaling.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "analysis/analysis.hpp"
#include "report/analysis_report.hpp"
#include "report/svg_charts.hpp"

namespace aisp::report {
using namespace analysis;  // this file prints analysis results: their types read better unqualified
namespace {

using svg::escape;

const char* kStyle = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px auto;max-width:980px;color:#222;font-size:14px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#555;font-size:12.5px;line-height:1.5} .notes{background:#fbf7e9;border:1px solid #eadca6;padding:8px 12px;
font-size:12.5px;margin:12px 0} .notes li{margin:2px 0}
table{border-collapse:collapse;font-size:12.5px;margin:6px 0;width:100%} th,td{border-bottom:1px solid #e5e5e5;
padding:3px 6px;text-align:left;vertical-align:top} th{background:#f4f4f4} td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.v-FASTER{color:#1e7d32;font-weight:bold}.v-SLOWER{color:#b71c1c;font-weight:bold}.v-INVALID{color:#fff;background:#b71c1c}
.v-SAME{color:#555}.v-INCONCLUSIVE{color:#a15c00} figure{margin:10px 0} figcaption{font-size:12px;color:#555}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:8px 24px} .empty{color:#777;font-style:italic}
.m{background:#dff0d8}.c{background:#f2dede}.u{background:#f7f7f7}
)";

std::string num(double v, const char* f = "{:.3g}") { return known(v) ? fmt::format(fmt::runtime(f), v) : "-"; }

std::string time_text(double ms) {
  if (!known(ms)) return "-";
  if (ms < 1) return fmt::format("{:.1f} µs", ms * 1e3);
  if (ms < 1000) return fmt::format("{:.3f} ms", ms);
  return fmt::format("{:.3f} s", ms / 1e3);
}

// 3.626e11 -> "362.6 G": throughputs span twelve orders of magnitude across targets.
std::string si(double v) {
  if (!known(v)) return "-";
  const char* units[] = {"", " k", " M", " G", " T", " P"};
  int i = 0;
  while (std::abs(v) >= 1000 && i < 5) v /= 1000, ++i;
  return fmt::format("{:.4g}{}", v, units[i]);
}

std::string verdict_color(const std::string& v) {
  if (v == "FASTER") return "#54a24b";
  if (v == "SLOWER") return "#e45756";
  if (v == "INCONCLUSIVE") return "#f2a93b";
  return "#9d9d9d";
}

std::string verdict_cell(const std::string& v) {
  return v.empty() ? "<td>-</td>" : fmt::format(R"(<td class="v-{0}">{0}</td>)", escape(v));
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "<ul>";
  for (auto& i : items) out += "<li>" + escape(i) + "</li>";
  return out + "</ul>";
}

std::string summary_table(const std::vector<VariantRow>& rows) {
  std::string out = "<table><tr><th>target</th><th>variant</th><th>verdict</th><th>median</th><th>speedup [95% CI]</th>"
                    "<th>peak MiB</th><th>GB/s</th><th>TFLOP/s</th><th>% roofline</th><th>J/run</th></tr>";
  for (auto& r : rows) {
    std::string sp = r.baseline ? "-" : fmt::format("{}x [{}, {}]", num(r.speedup, "{:.3f}"), num(r.ci_low, "{:.3f}"),
                                                     num(r.ci_high, "{:.3f}"));
    out += fmt::format("<tr><td>{}</td><td>{}</td>{}<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>"
                       "<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
                       escape(r.target), escape(r.variant) + (r.usable ? "" : " <small>(" + escape(r.unusable_reason) + ")</small>"),
                       verdict_cell(r.baseline ? "" : r.verdict), time_text(r.median_ms), sp, num(r.peak_mb, "{:.0f}"),
                       known(r.bytes_per_s) ? fmt::format("{:.1f}", r.bytes_per_s / 1e9) : "-",
                       known(r.flops_per_s) ? fmt::format("{:.2f}", r.flops_per_s / 1e12) : "-",
                       num(r.roofline_pct, "{:.1f}"), num(r.energy.joules_per_run, "{:.3g}"));
  }
  return out + "</table>";
}

std::string board_table(const std::string& title, const std::vector<LeaderboardEntry>& v, bool ci) {
  std::string out = "<div><h3 style='font-size:14px;margin:8px 0 2px'>" + escape(title) + "</h3>";
  if (v.empty()) return out + "<p class=empty>nothing to rank</p></div>";
  out += "<table><tr><th>#</th><th>target / variant</th><th>value</th><th>detail</th></tr>";
  for (size_t i = 0; i < v.size(); ++i) {
    const auto& e = v[i];
    std::string val = ci && known(e.low) ? fmt::format("{:.4g}{} [{:.4g}, {:.4g}]", e.value, e.unit, e.low, e.high)
                      : e.unit == "%"    ? fmt::format("{:.1f}%", e.value)
                                         : si(e.value) + " " + e.unit;
    out += fmt::format("<tr><td>{}</td><td>{} / {}</td><td class=n>{}</td><td>{}</td></tr>", i + 1, escape(e.target),
                       escape(e.variant), escape(val), escape(e.detail));
  }
  return out + "</table></div>";
}

// One row per target, one column per goal: the pick and why.
std::string recommendation_table(const std::vector<Recommendation>& recs) {
  std::vector<std::string> targets, goals = {"speed", "latency", "memory"};
  for (auto& r : recs)
    if (std::find(targets.begin(), targets.end(), r.target) == targets.end()) targets.push_back(r.target);
  std::string out = "<table><tr><th>target</th><th>for speed</th><th>for latency (p99)</th><th>for memory</th></tr>";
  for (auto& t : targets) {
    out += "<tr><td>" + escape(t) + "</td>";
    for (auto& g : goals) {
      std::string cell = "-";
      for (auto& r : recs)
        if (r.target == t && (r.goal == g || r.goal == "any"))
          cell = "<b>" + escape(r.variant.empty() ? "none" : r.variant) + "</b><br><small>" + escape(r.why) + "</small>";
      out += "<td>" + cell + "</td>";
    }
    out += "</tr>";
  }
  return out + "</table>";
}

std::string speedup_chart(const std::vector<VariantRow>& rows) {
  std::vector<svg::Bar> bars;
  for (auto& r : rows) {
    if (r.baseline || !r.usable || !known(r.speedup)) continue;
    bars.push_back({r.target + " / " + r.variant,
                    fmt::format("{:.4g}x [{:.4g}, {:.4g}]", r.speedup, r.ci_low, r.ci_high), verdict_color(r.verdict),
                    r.speedup, r.ci_low, r.ci_high});
  }
  if (bars.empty()) return "<p class=empty>no usable optimized variant to chart</p>";
  svg::BarChartOptions o;
  o.title = "Speedup over the baseline (median ratio) with 95% bootstrap CI";
  o.x_label = "speedup = baseline median / variant median (log scale)";
  o.log_x = true;
  o.origin = 1;
  o.reference = 1;
  o.reference_label = "1x = baseline";
  o.legend = {{"#54a24b", "FASTER"}, {"#9d9d9d", "SAME"}, {"#f2a93b", "INCONCLUSIVE"}, {"#e45756", "SLOWER"}};
  return "<figure>" + svg::bar_chart(bars, o) +
         "<figcaption>Bars start at 1x; whiskers are the bootstrap 95% CI of the speedup from the interleaved "
         "samples (often narrower than the bar's end marker).</figcaption></figure>";
}

std::string pareto_chart(const std::vector<ParetoPoint>& pts) {
  if (pts.empty()) return "<p class=empty>no variant has both a speedup and a peak-memory figure</p>";
  std::vector<svg::Point> p;
  for (auto& x : pts)
    p.push_back({x.target + " / " + x.variant, x.on_frontier ? "#e45756" : "#4c78a8", x.speedup, x.memory_savings_pct,
                 x.on_frontier});
  svg::ScatterOptions o;
  o.title = "Speed vs memory: Pareto frontier (filled = no other variant is both faster and leaner)";
  o.x_label = "speedup over the baseline (log scale)";
  o.y_label = "peak-memory saving vs baseline (%)";
  o.log_x = true;
  return "<figure>" + svg::scatter(p, o) + "</figure>";
}

std::string roofline_section(const std::vector<VariantRow>& rows, const Hardware& hw) {
  std::string out;
  // One roofline per precision: its compute roof differs.
  std::map<std::string, std::vector<const VariantRow*>> by_precision;
  std::vector<const VariantRow*> movers;
  for (auto& r : rows) {
    if (!r.usable) continue;
    if (known(r.flops) && known(r.bytes)) by_precision[r.precision].push_back(&r);
    else if (known(r.bytes_per_s)) movers.push_back(&r);
  }
  for (auto& [prec, list] : by_precision) {
    RooflineCeilings c = roofline_ceilings(hw, prec);
    if (!known(c.flops_per_s) || !known(c.dram_bytes_per_s)) {
      out += "<p class=empty>no " + escape(prec) + " ceilings known (no device facts): roofline not drawn</p>";
      continue;
    }
    std::vector<svg::RooflineKernel> k;
    for (auto* r : list)
      k.push_back({fmt::format("{} / {} ({:.0f}%)", r->target, r->variant, r->roofline_pct),
                   r->baseline ? "#9d9d9d" : verdict_color(r->verdict), r->arithmetic_intensity, r->flops_per_s});
    out += "<figure>" + svg::roofline(k, c.flops_per_s, c.dram_bytes_per_s, "Roofline, " + prec + " (" + hw.gpu_model + ")") +
           "<figcaption>Compute roof: " + escape(c.compute_source) + ". Bandwidth roof: " + escape(c.bandwidth_source) +
           ". Grey = baselines. % = achieved / attainable at the kernel's intensity.</figcaption></figure>";
  }
  if (!movers.empty()) {
    RooflineCeilings c = roofline_ceilings(hw, "f32");
    std::vector<svg::Bar> bars;
    for (auto* r : movers)
      bars.push_back({r->target + " / " + r->variant,
                      known(r->roofline_pct) ? fmt::format("{:.0f} GB/s ({:.0f}%)", r->bytes_per_s / 1e9, r->roofline_pct)
                                             : fmt::format("{:.0f} GB/s", r->bytes_per_s / 1e9),
                      r->baseline ? "#9d9d9d" : verdict_color(r->verdict), r->bytes_per_s / 1e9, kNaN, kNaN});
    svg::BarChartOptions o;
    o.title = "Data movers (no FLOPs declared): achieved DRAM bandwidth";
    o.x_label = "achieved bandwidth = declared bytes / median time (GB/s)";
    if (known(c.dram_bytes_per_s)) {
      o.reference = c.dram_bytes_per_s / 1e9;
      o.reference_label = fmt::format("DRAM roof {:.0f} GB/s", o.reference);
    }
    o.legend = {{"#9d9d9d", "baseline"}, {"#54a24b", "FASTER variant"}};
    out += "<figure>" + svg::bar_chart(bars, o) + "<figcaption>These kernels sit on the bandwidth roof's axis (zero "
           "FLOPs), so they are placed against the DRAM ceiling instead: " + escape(c.bandwidth_source) +
           ".</figcaption></figure>";
  }
  if (out.empty()) out = "<p class=empty>no workload declares bytes or FLOPs: nothing to place on a roofline</p>";
  return out;
}

std::string history_section(const Dataset& d) {
  auto h = speedup_history(d.runs);
  if (h.empty()) return "<p class=empty>no optimized variant with a speedup in these runs</p>";
  std::string out = fmt::format("<p class=meta>{} run(s) of {} in this dataset, oldest left.</p>", d.runs.size(),
                                escape(d.hardware.hardware_key.empty() ? "this GPU" : d.hardware.hardware_key));
  out += "<table><tr><th>target / variant</th><th>speedup over runs (95% CI band)</th><th>latest</th><th>runs</th></tr>";
  for (auto& [key, pts] : h) {
    std::vector<double> y, lo, hi;
    for (auto& p : pts) y.push_back(p.speedup), lo.push_back(p.ci_low), hi.push_back(p.ci_high);
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=n>{:.3g}x</td><td class=n>{}</td></tr>", escape(key),
                       svg::sparkline(y, lo, hi, "x"), y.back(), y.size());
  }
  return out + "</table>";
}

std::string stacking_section(const Stacking& s) {
  std::string out = list(s.notes);
  if (s.tags.empty()) return out + "<p class=empty>no variant's technique matched a tag</p>";
  out += "<table><tr><th></th>";
  for (auto& t : s.tags) out += "<th>" + escape(t) + "</th>";
  out += "</tr>";
  for (auto& a : s.tags) {
    out += "<tr><th>" + escape(a) + "</th>";
    for (auto& b : s.tags) {
      const StackingCell* c = nullptr;
      for (auto& x : s.cells)
        if ((x.a == a && x.b == b) || (x.a == b && x.b == a)) c = &x;
      if (!c) { out += "<td></td>"; continue; }
      std::string cls = c->state == "measured" ? "m" : c->state == "conflict" ? "c" : "u";
      std::string text = c->state == "measured" ? fmt::format("{} ({:.3g}x)", c->variants.size(), c->best_speedup)
                                                : c->state == "conflict" ? "conflict" : "untested";
      out += fmt::format("<td class={} title=\"{}\">{}</td>", cls, escape(c->reason), text);
    }
    out += "</tr>";
  }
  out += "</table><p class=meta>Cells: number of measured variants carrying both tags (best speedup), a declared "
         "conflict, or untested.</p>";
  if (!s.untagged.empty()) out += "<p class=meta>Untagged: " + escape(fmt::format("{}", fmt::join(s.untagged, "; "))) + "</p>";
  return out;
}

}  // namespace

std::string render_html(const Dataset& d, const ReportOptions& o) {
  DerivationInputs ctx = derivation_inputs(d);
  const RunData& run = d.current();
  Analysis a = analyze(run.targets, ctx, o.top_n);
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));

  std::string h = "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>" + escape(o.title) +
                  "</title><style>" + kStyle + "</style></head><body>";
  h += "<h1>" + escape(o.title) + "</h1><div class=meta>";
  h += fmt::format("Run <b>{}</b> from {}<br>GPU: {} ({}), timing mode {}, commit {}<br>Generated {}{}</div>",
                   escape(run.key), escape(d.source), escape(d.hardware.gpu_model.empty() ? "unknown" : d.hardware.gpu_model),
                   escape(d.hardware.hardware_key), escape(run.mode.empty() ? "-" : run.mode),
                   escape(run.git_commit.empty() ? "-" : run.git_commit.substr(0, 12)), stamp,
                   o.author.empty() ? "" : " by " + escape(o.author));
  std::vector<std::string> notes = a.notes;
  if (!a.ceilings_note.bandwidth_source.empty()) notes.push_back("bandwidth roof: " + a.ceilings_note.bandwidth_source);
  h += "<div class=notes><b>Read this first</b>" + list(notes) + "</div>";

  h += "<h2>Results</h2>" + summary_table(a.rows);
  h += "<h2>Speedups</h2>" + speedup_chart(a.rows);
  h += "<h2>Speed vs memory</h2>" + pareto_chart(a.pareto);
  if (!a.tradeoffs.empty()) {
    std::vector<std::string> t;
    for (auto& x : a.tradeoffs) t.push_back(x.target + " / " + x.variant + ": " + x.text);
    h += "<p><b>Trade-offs</b></p>" + list(t);
  }
  h += "<h2>Roofline</h2>" + roofline_section(a.rows, d.hardware);
  h += "<h2>History</h2>" + history_section(d);
  h += "<h2>Leaderboards</h2><div class=grid>" + board_table("Speedup (ranked by CI lower end)", a.boards.speed, true) +
       board_table("Peak-memory saving", a.boards.memory, false) + board_table("Throughput", a.boards.throughput, false) +
       board_table("% of roofline", a.boards.roofline, false) + "</div>";
  if (!a.boards.excluded.empty()) h += "<p class=meta>Not ranked: " + escape(fmt::format("{}", fmt::join(a.boards.excluded, "; "))) + "</p>";
  h += "<h2>Recommendations by goal</h2>" + recommendation_table(a.recommendations);
  Power p = power(a.rows);
  h += "<h2>Power</h2>";
  if (!p.any_energy) {
    h += "<p class=empty>" + escape(p.notes.front()) + "</p>";
  } else {
    h += "<table><tr><th>target / variant</th><th>J/run</th><th>avg W</th><th>GFLOP/J</th><th>items/J</th><th>energy saving</th></tr>";
    for (auto& r : p.rows)
      if (r.energy.present)
        h += fmt::format("<tr><td>{} / {}</td><td class=n>{:.4g}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>"
                         "<td class=n>{}</td></tr>", escape(r.target), escape(r.variant), r.energy.joules_per_run,
                         num(r.energy.avg_power_w, "{:.0f}"), known(r.ops_per_joule) ? num(r.ops_per_joule / 1e9) : "-",
                         num(r.items_per_joule), known(r.energy_saving_pct) ? num(r.energy_saving_pct, "{:.1f}%") : "-");
    h += "</table>" + list(p.notes);
  }
  if (o.prices) {
    h += "<h2>Cost</h2>";
    try {
      Cost c = cost(a.rows, *o.prices, "", d.hardware.gpu_model, kNaN, o.top_n);
      h += fmt::format("<p class=meta>{} at ${:.2f}/GPU-hour from {}</p>", escape(c.gpu), c.usd_per_hour, escape(c.rate_source));
      h += "<table><tr><th>target / variant</th><th>$ per 1M runs</th><th>baseline</th><th>saving</th><th>$ per 1M items</th></tr>";
      for (auto& r : c.rows)
        h += fmt::format("<tr><td>{} / {}</td><td class=n>{:.4g}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{} {}</td></tr>",
                         escape(r.target), escape(r.variant), r.usd_per_million_ops, num(r.baseline_usd_per_million_ops, "{:.4g}"),
                         known(r.saving_pct) ? fmt::format("{:.1f}%", r.saving_pct) : "-", num(r.usd_per_million_items, "{:.4g}"),
                         escape(r.item_unit));
      h += "</table>" + list(c.notes);
    } catch (const std::exception& e) {
      h += "<p class=empty>" + escape(e.what()) + "</p>";
    }
  }
  if (o.vocabulary) h += "<h2>Technique stacking</h2>" + stacking_section(stacking(a.rows, *o.vocabulary));
  Scaling s = scaling(d.runs);
  h += "<h2>Scaling</h2>";
  if (s.series.empty()) h += "<p class=empty>" + escape(s.notes.front()) + "</p>";
  else {
    h += "<table><tr><th>target / variant</th><th>axis</th><th>points</th><th>speedup change per doubling</th><th>trend</th>"
         "<th>time exponents (baseline, variant)</th></tr>";
    for (auto& x : s.series)
      h += fmt::format("<tr><td>{} / {}</td><td>{}</td><td class=n>{}</td><td class=n>{:+.3g} (R² {:.2f})</td><td>{}</td>"
                       "<td class=n>{:.2f}, {:.2f}</td></tr>", escape(x.target), escape(x.variant), escape(x.axis),
                       x.points.size(), x.speedup_per_doubling, x.speedup_r2, escape(x.trend), x.baseline_exponent,
                       x.variant_exponent);
    h += "</table>";
  }
  h += "<p class=meta style='margin-top:24px'>Generated by aisp " AISP_VERSION
       "; formulas: docs/analysis.md. Self-contained: no script, no external resource.</p></body></html>\n";
  return h;
}

}  // namespace aisp::report
