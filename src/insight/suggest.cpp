#include "insight/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "profile/bottleneck.hpp"

namespace aisp::insight {

namespace an = aisp::analysis;

std::string roofline_bottleneck(const an::VariantRow& row) {
  if (!an::known(row.roofline_pct) || row.bound.empty()) return "unplaced";
  // Below half the roof the access pattern, not the hardware, is the limit; above 80% (what tuned copies
  // reach on H100: 88-97% in the reference runs) only moving fewer bytes or FLOPs still pays.
  std::string side = row.bound == "compute" ? "compute" : "memory";
  // Under 5% of every device roof the time is not spent on DRAM or the SMs at all (host copies, PCIe,
  // storage, launches, waiting): the device-side fixes do not apply.
  if (row.roofline_pct < 5) return "off_roof";
  if (row.roofline_pct < 50) return side + "_far_from_roof";
  if (row.roofline_pct >= 80) return side + "_near_roof";
  return side + "_bound";
}

namespace {

struct Bottleneck {
  std::string id, why, cite;
  double weight = 1;  // the finding's severity (critical 1, warning 0.8, info 0.5)
};

// The variant the next step starts from: the FASTER one with the highest CI low end, else the baseline.
const an::VariantRow* reference_row(const std::vector<const an::VariantRow*>& rows) {
  const an::VariantRow* best = nullptr;
  for (auto* r : rows)
    if (r->baseline && !best) best = r;
  for (auto* r : rows)
    if (r->usable && r->verdict == "FASTER" && (!best || best->baseline || r->ci_low > best->ci_low)) best = r;
  return best;
}

std::vector<Bottleneck> bottlenecks(const RunEvidence& run, const an::VariantRow& row,
                                    const std::vector<ProfileEvidence>* profiles) {
  std::vector<Bottleneck> out;
  if (profiles)
    for (auto& p : *profiles) {
      if (p.variant != row.variant) continue;
      for (auto& f : profile::diagnose(p.kernel).findings)
        out.push_back({f.id, fmt::format("{} (ncu): {}", row.variant, f.why), p.citation.id,
                       f.severity == "critical"  ? 1.0
                       : f.severity == "warning" ? 0.8
                                                 : 0.5});
    }
  if (!out.empty()) return out;
  std::string id = roofline_bottleneck(row);
  std::string why =
      id == "unplaced"
          ? fmt::format("{} is not placed on the roofline (no declared bytes/FLOPs or ceilings) and has no stored profile",
                        row.variant)
          : fmt::format("{} runs at {:.1f}% of the {} roof ({}, {})", row.variant, row.roofline_pct, row.bound,
                        row.bound == "compute" ? fmt::format("{:.1f} TFLOP/s", row.flops_per_s / 1e12)
                                               : fmt::format("{:.0f} GB/s", row.bytes_per_s / 1e9),
                        row.baseline ? "the baseline: no variant is faster yet" : "the best measured variant");
  out.push_back({id, why, run.citation().id + (id == "unplaced" ? "" : ", ceilings"), 1.0});
  return out;
}

// tag -> "variant (6.22x FASTER)" for every usable variant of the target whose technique carries it.
std::map<std::string, std::string> tried_tags(const std::vector<const an::VariantRow*>& rows, const an::TagVocabulary& v) {
  std::map<std::string, std::string> out;
  for (auto* r : rows) {
    if (r->baseline || !r->usable) continue;
    for (auto& tag : an::tags_for(v, r->technique))
      out.emplace(tag, fmt::format("{}, {:.2f}x {}", r->variant, r->speedup, r->verdict.empty() ? "no verdict" : r->verdict));
  }
  return out;
}

Suggestion suggestion_for(const std::string& target, const Bottleneck& b, const PatternRow& p, double headroom,
                          const std::map<std::string, std::string>& tried) {
  Suggestion s{target, p.id, p.title, 0, b.why, {}, {}, {b.cite}};
  for (auto& f : p.fixes) {
    std::string where;
    for (auto& t : f.tags)
      if (auto it = tried.find(t); it != tried.end() && where.empty()) where = it->second;
    if (where.empty()) s.fixes.push_back(f.text);
    else s.applied.push_back(fmt::format("{} (already applied in {})", f.text, where));
  }
  // A row whose every fix was already measured is still listed (the data say so) but ranked down.
  s.score = p.priority * headroom * b.weight * (s.fixes.empty() ? 0.3 : 1.0);
  return s;
}

}  // namespace

Answer suggest(const RunEvidence& run, const std::map<std::string, std::vector<ProfileEvidence>>& profiles,
               const std::vector<std::string>& targets, const SuggestTables& tables, size_t top) {
  Answer a;
  a.command = "suggest";
  a.subject = targets.size() == 1 ? targets.front()
              : targets.empty()   ? "all targets of the run"
                                  : fmt::format("{}", fmt::join(targets, " "));
  a.source = run.source;
  a.cite(run.citation());
  a.cite(run.ceilings_citation());
  a.cite({"patterns", "patterns", "optimization-patterns table " + tables.patterns.source});
  std::vector<std::string> unprofiled;
  for (auto& target : targets.empty() ? run.targets() : targets) {
    auto rows = run.rows_of(target);
    const an::VariantRow* ref = reference_row(rows);
    if (!ref) continue;
    auto pit = profiles.find(target);
    const std::vector<ProfileEvidence>* prof = pit == profiles.end() ? nullptr : &pit->second;
    if (prof)
      for (auto& p : *prof) a.cite(p.citation);
    double headroom = an::known(ref->roofline_pct) ? std::clamp(1 - ref->roofline_pct / 100, 0.05, 1.0) : 0.5;
    auto tried = tried_tags(rows, tables.tags);
    for (auto& b : bottlenecks(run, *ref, prof)) {
      a.facts.push_back({"bottleneck", target, ref->variant, b.why, {{"bottleneck", b.id}, {"headroom", headroom}}, b.cite});
      if (const PatternRow* p = tables.patterns.find(b.id))
        a.suggestions.push_back(suggestion_for(target, b, *p, headroom, tried));
      else
        a.missing.push_back(fmt::format("no optimization-patterns row for bottleneck {} ({})", b.id, tables.patterns.source));
    }
    if (!prof || prof->empty()) unprofiled.push_back(target);
  }
  if (!unprofiled.empty())
    a.missing.push_back(
        fmt::format("no stored ncu profile for {}: ranked from the roofline placement only (`aisp profile "
                    "ncu --target <target> --preset deep_dive` on a GPU adds the decision tree)",
                    unprofiled.size() == 1 ? unprofiled.front() : fmt::format("{} targets", unprofiled.size())));
  std::stable_sort(a.suggestions.begin(), a.suggestions.end(), [](auto& x, auto& y) { return x.score > y.score; });
  if (top && a.suggestions.size() > top) a.suggestions.resize(top);
  for (auto& s : a.suggestions)
    if (a.summary.size() < 3)
      a.summary.push_back(fmt::format("{}: {} — next: {} [{}]", s.target, s.title,
                                      s.fixes.empty() ? "(every fix already measured)" : s.fixes.front(),
                                      fmt::join(s.cites, ", ")));
  if (a.summary.empty()) a.summary.push_back("nothing to suggest: no measured target in the run");
  return a;
}

}  // namespace aisp::insight
