#include "insight/explain.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "profile/bottleneck.hpp"
#include "profile/profile_compare.hpp"

namespace aisp::insight {

namespace an = aisp::analysis;

std::string bytes_text(double b) {
  if (!an::known(b)) return "-";
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

std::string rate_text(double r) { return an::known(r) ? fmt::format("{:.0f} GB/s", r / 1e9) : "-"; }

std::string ms_text(double ms) {
  if (!an::known(ms)) return "-";
  return ms < 1 ? fmt::format("{:.1f} us", ms * 1e3) : fmt::format("{:.3f} ms", ms);
}

namespace {

json num(double v) { return an::number(v); }

std::string verdict_sentence(const an::VariantRow& b, const an::VariantRow& v) {
  if (!v.usable) return fmt::format("not comparable: {} ({})", v.status, v.unusable_reason);
  std::string ci = fmt::format("95% CI [{:.2f}, {:.2f}]", v.ci_low, v.ci_high);
  std::string medians =
      fmt::format("medians {} -> {}, {} / {} samples", ms_text(b.median_ms), ms_text(v.median_ms), b.samples, v.samples);
  if (v.verdict == "FASTER")
    return fmt::format("{:.2f}x faster than the baseline, {} (verdict FASTER; {})", v.speedup, ci, medians);
  if (v.verdict == "SLOWER")
    return fmt::format("{:.2f}x slower than the baseline (speedup {:.2f}, {}; verdict SLOWER; {})", 1 / v.speedup, v.speedup,
                       ci, medians);
  return fmt::format("no difference shown: speedup {:.2f}, {} (verdict {}; {})", v.speedup, ci,
                     v.verdict.empty() ? "none" : v.verdict, medians);
}

const an::VariantRow* baseline_of(const std::vector<const an::VariantRow*>& rows) {
  for (auto* r : rows)
    if (r->baseline) return r;
  return nullptr;
}

}  // namespace

std::vector<Fact> verdict_facts(const RunEvidence& run, const std::string& target) {
  std::vector<Fact> out;
  auto rows = run.rows_of(target);
  const an::VariantRow* b = baseline_of(rows);
  if (!b) return out;
  std::string cite = run.citation().id;
  out.push_back(
      {"technique", target, "baseline", "baseline technique: " + (b->technique.empty() ? "-" : b->technique), {}, cite});
  for (auto* v : rows) {
    if (v->baseline) continue;
    out.push_back({"verdict",
                   target,
                   v->variant,
                   verdict_sentence(*b, *v),
                   {{"verdict", v->verdict},
                    {"speedup", num(v->speedup)},
                    {"ci_low", num(v->ci_low)},
                    {"ci_high", num(v->ci_high)},
                    {"baseline_ms", num(b->median_ms)},
                    {"variant_ms", num(v->median_ms)},
                    {"status", v->status}},
                   cite});
    if (!v->technique.empty()) out.push_back({"technique", target, v->variant, "technique: " + v->technique, {}, cite});
  }
  return out;
}

namespace {

Fact roofline_fact(const RunEvidence& run, const an::VariantRow& b, const an::VariantRow& v) {
  an::RooflineCeilings c = an::roofline_ceilings(run.hardware, v.precision);
  json values = {{"bytes", num(v.bytes)},
                 {"flops", num(v.flops)},
                 {"baseline_bytes_per_s", num(b.bytes_per_s)},
                 {"variant_bytes_per_s", num(v.bytes_per_s)},
                 {"baseline_roofline_pct", num(b.roofline_pct)},
                 {"variant_roofline_pct", num(v.roofline_pct)},
                 {"bound", v.bound},
                 {"dram_roof_bytes_per_s", num(c.dram_bytes_per_s)}};
  std::string text;
  if (an::known(v.flops) && an::known(v.arithmetic_intensity)) {
    text = fmt::format(
        "{} FLOP over {} per run (declared): intensity {:.2f} FLOP/B, {} bound; {:.1f}% -> {:.1f}% of the "
        "attainable roof at that intensity ({:.1f} -> {:.1f} TFLOP/s)",
        fmt::format("{:.3g}", v.flops), bytes_text(v.bytes), v.arithmetic_intensity, v.bound, b.roofline_pct, v.roofline_pct,
        b.flops_per_s / 1e12, v.flops_per_s / 1e12);
  } else {
    text = fmt::format(
        "both move {} per run (declared workload); achieved {} -> {} = {:.1f}% -> {:.1f}% of the {} "
        "bandwidth roof: the same bytes in less time, so the gain is in how efficiently they move, "
        "not in moving fewer",
        bytes_text(v.bytes), rate_text(b.bytes_per_s), rate_text(v.bytes_per_s), b.roofline_pct, v.roofline_pct,
        rate_text(c.dram_bytes_per_s));
  }
  if (an::known(v.roofline_pct) && v.roofline_pct >= 80)
    text += fmt::format("; at {:.0f}% of the roof little is left without moving fewer {}", v.roofline_pct,
                        an::known(v.flops) ? "bytes or FLOPs" : "bytes");
  return {"roofline", v.target, v.variant, text, values, run.citation().id + ", ceilings"};
}

}  // namespace

std::vector<Fact> roofline_facts(const RunEvidence& run, const std::string& target) {
  std::vector<Fact> out;
  auto rows = run.rows_of(target);
  const an::VariantRow* b = baseline_of(rows);
  if (!b || !an::known(b->bytes) || !an::known(b->roofline_pct)) return out;
  for (auto* v : rows)
    if (!v->baseline && v->usable && an::known(v->roofline_pct)) out.push_back(roofline_fact(run, *b, *v));
  return out;
}

std::vector<Fact> counter_facts(const std::vector<ProfileEvidence>& profiles, const std::string& target) {
  std::vector<Fact> out;
  const ProfileEvidence* base = nullptr;
  for (auto& p : profiles)
    if (p.variant == "baseline") base = &p;
  for (auto& p : profiles) {
    profile::Diagnosis d = profile::diagnose(p.kernel);
    if (!d.findings.empty())
      out.push_back({"bottleneck",
                     target,
                     p.variant,
                     fmt::format("{}: {}", d.findings.front().title, d.findings.front().why),
                     {{"verdict", d.verdict}},
                     p.citation.id});
    if (!base || &p == base) continue;
    profile::ProfileComparison c = profile::compare_profiles("baseline", base->kernel, p.variant, p.kernel);
    for (auto& sentence : c.explanation)
      out.push_back({"counters", target, p.variant, sentence, {}, base->citation.id + ", " + p.citation.id});
  }
  return out;
}

namespace {

void add_missing(Answer& a, const RunEvidence& run, const std::vector<ProfileEvidence>& profiles, const std::string& target) {
  std::vector<std::string> unprofiled;
  for (auto* r : run.rows_of(target))
    if (std::none_of(profiles.begin(), profiles.end(), [&](auto& p) { return p.variant == r->variant; }))
      unprofiled.push_back(r->variant);
  if (!unprofiled.empty())
    a.missing.push_back(
        fmt::format("no ncu profile stored for {} ({}): the counters that show *why* (sectors per request, DRAM throughput, "
                    "stall reasons, occupancy) are not available; collect them on a GPU with `aisp profile ncu --target {} "
                    "--preset deep_dive` (stored in the same results store), or pass --profiles DIR with recorded ncu CSVs",
                    target, fmt::join(unprofiled, ", "), target));
  auto rows = run.rows_of(target);
  if (std::any_of(rows.begin(), rows.end(), [](auto* r) { return !an::known(r->bytes) && !an::known(r->flops); }))
    a.missing.push_back(target + " declares neither bytes nor FLOPs per run: no roofline placement is possible");
  if (!run.hardware.capabilities.is_object())
    a.missing.push_back("no measured ceilings (hardware_capabilities_" + run.run.hardware_key +
                        ".json): the roofline uses theoretical device-property ceilings; run `aisp hw speed` on that GPU");
  for (auto& l : run.elsewhere)
    a.missing.push_back(fmt::format("{} was also measured on {} (run {}): pass --hardware {} to explain that one", target,
                                    l.hardware_key, l.run_id, l.hardware_key));
}

void summarize(Answer& a, const RunEvidence& run, const std::string& target) {
  auto rows = run.rows_of(target);
  const an::VariantRow* b = baseline_of(rows);
  for (auto* v : rows) {
    if (v->baseline || !b) continue;
    a.summary.push_back(fmt::format("{} {}: {} [{}]", target, v->variant, verdict_sentence(*b, *v), run.citation().id));
    if (v->usable && an::known(v->roofline_pct) && an::known(b->roofline_pct))
      a.summary.push_back(fmt::format(
          "  why (roofline): {:.1f}% -> {:.1f}% of the {} roof ({} {} -> {}) [{}, ceilings]", b->roofline_pct, v->roofline_pct,
          v->bound.empty() ? "attainable" : v->bound, an::known(v->flops) ? "FLOP rate" : "achieved bandwidth",
          an::known(v->flops) ? fmt::format("{:.1f} TFLOP/s", b->flops_per_s / 1e12) : rate_text(b->bytes_per_s),
          an::known(v->flops) ? fmt::format("{:.1f} TFLOP/s", v->flops_per_s / 1e12) : rate_text(v->bytes_per_s),
          run.citation().id));
  }
}

}  // namespace

Answer explain(const RunEvidence& run, const std::vector<ProfileEvidence>& profiles, const std::string& target) {
  Answer a;
  a.command = "explain";
  a.subject = target;
  a.source = run.source;
  a.cite(run.citation());
  a.cite(run.ceilings_citation());
  for (auto& p : profiles) a.cite(p.citation);
  summarize(a, run, target);
  auto counters = counter_facts(profiles, target);
  for (auto& f : counters)
    if (f.topic == "counters" && (f.text.find("sector") != std::string::npos || f.text.find("DRAM") != std::string::npos))
      a.summary.push_back(fmt::format("  why (counters): {} [{}]", f.text, f.cite));
  for (auto group : {verdict_facts(run, target), roofline_facts(run, target), counters})
    for (auto& f : group) a.facts.push_back(f);
  add_missing(a, run, profiles, target);
  if (a.summary.empty()) a.summary.push_back(target + ": the run holds no optimized variant to compare with the baseline");
  return a;
}

}  // namespace aisp::insight
