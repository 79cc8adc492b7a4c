// The JSON form of every analysis result: what `--json`, the dashboard's REST API and the MCP server
// return. Missing figures are null, never 0.
#include "analysis/to_json.hpp"

namespace aisp::analysis {

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json to_json(const RooflineCeilings& c) {
  return {{"dram_bytes_per_s", number(c.dram_bytes_per_s)}, {"flops_per_s", number(c.flops_per_s)},
          {"bandwidth_source", c.bandwidth_source}, {"compute_source", c.compute_source},
          {"measured_bandwidth", c.measured_bandwidth}, {"measured_compute", c.measured_compute}};
}

json to_json(const Energy& e) {
  json j = {{"present", e.present}, {"joules_per_run", number(e.joules_per_run)}, {"avg_power_w", number(e.avg_power_w)}};
  if (e.present) j["source"] = e.source;
  else j["why"] = e.why;
  return j;
}

json to_json(const VariantRow& r) {
  json j = {{"target", r.target}, {"variant", r.variant}, {"technique", r.technique}, {"baseline", r.baseline},
            {"status", r.status}, {"verdict", r.verdict}, {"goal", r.goal}, {"mode", r.mode},
            {"usable", r.usable}, {"precision", r.precision}, {"params", r.params},
            {"median_ms", number(r.median_ms)}, {"p99_ms", number(r.p99_ms)}, {"rel_noise", number(r.rel_noise)},
            {"samples", r.samples}, {"speedup", number(r.speedup)}, {"ci_low", number(r.ci_low)},
            {"ci_high", number(r.ci_high)}, {"peak_mb", number(r.peak_mb)}, {"allocated_mb", number(r.allocated_mb)},
            {"memory_savings_pct", number(r.memory_savings_pct)}, {"workload_flops", number(r.flops)},
            {"workload_bytes", number(r.bytes)}, {"workload_items", number(r.items)}, {"item_unit", r.item_unit},
            {"items_per_s", number(r.items_per_s)}, {"bytes_per_s", number(r.bytes_per_s)},
            {"flops_per_s", number(r.flops_per_s)}, {"arithmetic_intensity", number(r.arithmetic_intensity)},
            {"roofline_pct", number(r.roofline_pct)}, {"bound", r.bound}, {"energy", to_json(r.energy)}};
  if (!r.usable) j["unusable_reason"] = r.unusable_reason;
  return j;
}

static json entries(const std::vector<LeaderboardEntry>& v) {
  json out = json::array();
  for (auto& e : v)
    out.push_back({{"target", e.target}, {"variant", e.variant}, {"technique", e.technique}, {"verdict", e.verdict},
                   {"value", number(e.value)}, {"low", number(e.low)}, {"high", number(e.high)}, {"unit", e.unit},
                   {"detail", e.detail}});
  return out;
}

json to_json(const Leaderboards& b) {
  return {{"speed", entries(b.speed)}, {"memory", entries(b.memory)}, {"throughput", entries(b.throughput)},
          {"roofline", entries(b.roofline)}, {"excluded", b.excluded}};
}

json to_json(const ParetoPoint& p) {
  return {{"target", p.target}, {"variant", p.variant}, {"technique", p.technique}, {"speedup", number(p.speedup)},
          {"memory_savings_pct", number(p.memory_savings_pct)}, {"peak_mb", number(p.peak_mb)},
          {"on_frontier", p.on_frontier}};
}

json to_json(const Tradeoff& t) {
  return {{"target", t.target}, {"variant", t.variant}, {"kind", t.kind}, {"speedup", number(t.speedup)},
          {"memory_savings_pct", number(t.memory_savings_pct)}, {"text", t.text}};
}

json to_json(const Recommendation& r) {
  return {{"goal", r.goal}, {"target", r.target}, {"variant", r.variant}, {"why", r.why}};
}

template <class T>
static json array_of(const std::vector<T>& v) {
  json out = json::array();
  for (auto& x : v) out.push_back(to_json(x));
  return out;
}

json to_json(const Analysis& a) {
  return {{"rows", array_of(a.rows)}, {"leaderboards", to_json(a.boards)}, {"pareto", array_of(a.pareto)},
          {"tradeoffs", array_of(a.tradeoffs)}, {"recommendations", array_of(a.recommendations)},
          {"ceilings", to_json(a.ceilings_note)}, {"notes", a.notes}};
}

json to_json(const WhatIf& w) {
  auto rows = [](const std::vector<WhatIfRow>& v) {
    json out = json::array();
    for (auto& x : v) {
      json j = to_json(x.row);
      j["fits"] = x.fits;
      j["violations"] = x.violations;
      out.push_back(std::move(j));
    }
    return out;
  };
  const WhatIfConstraints& c = w.constraints;
  return {{"constraints", {{"max_vram_gb", number(c.max_vram_gb)}, {"max_latency_ms", number(c.max_latency_ms)},
                           {"latency_stat", c.latency_stat}, {"min_throughput", number(c.min_throughput)},
                           {"min_speedup", number(c.min_speedup)}}},
          {"fits", rows(w.fits)}, {"rejected", rows(w.rejected)}, {"best_per_target", w.best_per_target}};
}

json to_json(const Stacking& s) {
  json cells = json::array();
  for (auto& c : s.cells)
    cells.push_back({{"a", c.a}, {"b", c.b}, {"state", c.state}, {"variants", c.variants},
                     {"best_speedup", number(c.best_speedup)}, {"reason", c.reason}});
  json best = json::object();
  for (auto& [k, v] : s.best_speedup_by_tag) best[k] = number(v);
  return {{"tags", s.tags}, {"variants_by_tag", s.variants_by_tag}, {"best_speedup_by_tag", best}, {"cells", cells},
          {"untagged", s.untagged}, {"notes", s.notes}};
}

json to_json(const Power& p) {
  json rows = json::array();
  for (auto& r : p.rows)
    rows.push_back({{"target", r.target}, {"variant", r.variant}, {"energy", to_json(r.energy)},
                    {"flop_per_joule", number(r.ops_per_joule)}, {"items_per_joule", number(r.items_per_joule)},
                    {"bytes_per_joule", number(r.bytes_per_joule)}, {"energy_saving_pct", number(r.energy_saving_pct)}});
  return {{"any_energy", p.any_energy}, {"rows", rows}, {"notes", p.notes}};
}

json to_json(const Cost& c) {
  json rows = json::array();
  for (auto& r : c.rows)
    rows.push_back({{"target", r.target}, {"variant", r.variant}, {"median_ms", number(r.median_ms)},
                    {"usd_per_op", number(r.usd_per_op)}, {"usd_per_million_ops", number(r.usd_per_million_ops)},
                    {"usd_per_million_items", number(r.usd_per_million_items)}, {"item_unit", r.item_unit},
                    {"baseline_usd_per_million_ops", number(r.baseline_usd_per_million_ops)},
                    {"saving_pct", number(r.saving_pct)}, {"usd_saved_per_million_ops", number(r.usd_saved_per_million_ops)}});
  return {{"gpu", c.gpu}, {"usd_per_hour", number(c.usd_per_hour)}, {"rate_source", c.rate_source},
          {"measured_on", c.measured_on}, {"rows", rows}, {"notes", c.notes}};
}

json to_json(const Scaling& s) {
  json series = json::array();
  for (auto& x : s.series) {
    json pts = json::array();
    for (auto& p : x.points)
      pts.push_back({{"x", number(p.x)}, {"run", p.run}, {"baseline_ms", number(p.baseline_ms)},
                     {"variant_ms", number(p.variant_ms)}, {"speedup", number(p.speedup)},
                     {"ci_low", number(p.ci_low)}, {"ci_high", number(p.ci_high)}});
    series.push_back({{"target", x.target}, {"variant", x.variant}, {"axis", x.axis}, {"fixed_params", x.fixed_params},
                      {"points", pts}, {"speedup_per_doubling", number(x.speedup_per_doubling)},
                      {"speedup_intercept", number(x.speedup_intercept)}, {"speedup_r2", number(x.speedup_r2)},
                      {"baseline_exponent", number(x.baseline_exponent)},
                      {"variant_exponent", number(x.variant_exponent)}, {"trend", x.trend}});
  }
  return {{"series", series}, {"single_point", s.single_point}, {"notes", s.notes}};
}

json to_json(const KvCache& k) {
  return {{"kv_width", k.kv_width}, {"bytes_per_element", k.bytes_per_element}, {"bytes_per_token", k.bytes_per_token},
          {"total_bytes", k.total_bytes}, {"total_gib", k.total_bytes / (1024.0 * 1024.0 * 1024.0)},
          {"formula", k.formula}};
}

json to_json(const CostPerToken& c) {
  return {{"joules_per_token", number(c.joules_per_token)}, {"kwh_per_million_tokens", number(c.kwh_per_million_tokens)},
          {"energy_usd_per_million_tokens", number(c.energy_usd_per_million_tokens)},
          {"rental_usd_per_million_tokens", number(c.rental_usd_per_million_tokens)},
          {"total_usd_per_million_tokens", number(c.total_usd_per_million_tokens)}};
}

json to_json(const std::map<std::string, std::vector<HistoryPoint>>& h) {
  json out = json::object();
  for (auto& [k, pts] : h) {
    json a = json::array();
    for (auto& p : pts)
      a.push_back({{"run", p.run}, {"stamp", p.stamp}, {"speedup", number(p.speedup)}, {"ci_low", number(p.ci_low)},
                   {"ci_high", number(p.ci_high)}, {"variant_ms", number(p.variant_ms)}});
    out[k] = a;
  }
  return out;
}

}  // namespace aisp::analysis
