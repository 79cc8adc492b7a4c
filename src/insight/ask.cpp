#include "insight/ask.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "insight/explain.hpp"

namespace aisp::insight {

namespace an = aisp::analysis;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// `word` occurs in `text` with no identifier character on either side ("copy" is not in "copy_scalar").
bool has_word(const std::string& text, const std::string& word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
    if ((at == 0 || !ident(text[at - 1])) && (at + word.size() == text.size() || !ident(text[at + word.size()]))) return true;
  return false;
}

// Keyword stems per topic; a stem matches the start of a word ("optimi" matches optimize, optimization).
const std::vector<std::pair<std::string, std::vector<std::string>>>& topic_keywords() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> k = {
      {"explain", {"why", "explain", "faster", "slower", "speedup", "speed-up", "verdict", "gain", "benefit", "win"}},
      {"roofline", {"roofline", "roof", "bandwidth", "bound", "gb/s", "tflop", "flop", "intensity", "efficien", "peak"}},
      {"suggest", {"suggest", "next", "improve", "optimi", "should", "try", "recommend", "bottleneck"}},
      {"rank", {"best", "fastest", "top", "biggest", "largest", "most", "slowest", "worst", "rank"}},
      {"status", {"invalid", "fail", "crash", "error", "broken", "cheat", "valid"}},
      {"energy", {"energy", "power", "watt", "joule"}},
  };
  return k;
}

bool has_stem(const std::string& text, const std::string& stem) {
  for (size_t at = text.find(stem); at != std::string::npos; at = text.find(stem, at + 1))
    if (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]))) return true;
  return false;
}

}  // namespace

Question parse_question(const std::string& question, const std::vector<std::string>& known_targets) {
  Question q;
  std::string text = lower(question);
  auto add = [&](const std::string& t) {
    if (std::find(q.targets.begin(), q.targets.end(), t) == q.targets.end()) q.targets.push_back(t);
  };
  // Most specific first: exact target ids, else example names ("transpose"), else chapters ("ch07").
  for (auto& t : known_targets)
    if (has_word(text, lower(t))) add(t);
  for (auto& t : known_targets) {
    std::string id = lower(t);
    if (q.targets.empty() ||
        std::none_of(q.targets.begin(), q.targets.end(), [&](auto& x) { return has_word(text, lower(x)); }))
      if (size_t colon = id.find(':'); colon != std::string::npos && has_word(text, id.substr(colon + 1))) add(t);
  }
  if (q.targets.empty())
    for (auto& t : known_targets)
      if (has_word(text, lower(t).substr(0, t.find(':')))) add(t);
  for (auto& [topic, stems] : topic_keywords())
    for (auto& s : stems)
      if (has_stem(text, s)) q.topics.insert(topic);
  if (q.topics.empty()) q.topics.insert(q.targets.empty() ? "rank" : "explain");
  return q;
}

namespace {

std::vector<Fact> ranking_facts(const RunEvidence& run, bool slowest) {
  std::vector<const an::VariantRow*> rows;
  for (auto& r : run.rows)
    if (!r.baseline && r.usable && an::known(r.ci_low)) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(),
            [&](auto* a, auto* b) { return slowest ? a->ci_high < b->ci_high : a->ci_low > b->ci_low; });
  std::vector<Fact> out;
  for (size_t i = 0; i < rows.size() && i < 5; ++i)
    out.push_back({"rank",
                   rows[i]->target,
                   rows[i]->variant,
                   fmt::format("#{} by the CI's {} end: {:.2f}x [{:.2f}, {:.2f}] ({})", i + 1, slowest ? "high" : "low",
                               rows[i]->speedup, rows[i]->ci_low, rows[i]->ci_high, rows[i]->verdict),
                   {{"speedup", an::number(rows[i]->speedup)}, {"ci_low", an::number(rows[i]->ci_low)}},
                   run.citation().id});
  return out;
}

std::vector<Fact> status_facts(const RunEvidence& run, const std::vector<std::string>& targets) {
  std::vector<Fact> out;
  for (auto& r : run.rows) {
    if (!targets.empty() && std::find(targets.begin(), targets.end(), r.target) == targets.end()) continue;
    if (!r.usable || r.verdict == "INVALID")
      out.push_back({"status",
                     r.target,
                     r.variant,
                     fmt::format("{} {}: {}", r.status, r.verdict, r.unusable_reason),
                     {},
                     run.citation().id});
  }
  if (out.empty())
    out.push_back({"status",
                   "",
                   "",
                   fmt::format("every variant{} of the run succeeded and passed its validity checks",
                               targets.empty() ? "" : " of the named targets"),
                   {},
                   run.citation().id});
  return out;
}

std::vector<Fact> energy_facts(const RunEvidence& run, const std::string& target) {
  std::vector<Fact> out;
  for (auto* r : run.rows_of(target))
    out.push_back({"energy",
                   target,
                   r->variant,
                   r->energy.present ? fmt::format("{:.4f} J per run at {:.0f} W average ({})", r->energy.joules_per_run,
                                                   r->energy.avg_power_w, r->energy.source)
                                     : "no energy data: " + r->energy.why,
                   {{"joules_per_run", an::number(r->energy.joules_per_run)}},
                   run.citation().id});
  return out;
}

}  // namespace

Answer ask(const std::string& question, const Question& q, const RunEvidence& run,
           const std::map<std::string, std::vector<ProfileEvidence>>& profiles, const SuggestTables& tables) {
  Answer a;
  a.command = "ask";
  a.subject = question;
  a.source = run.source;
  a.cite(run.citation());
  auto add = [&](std::vector<Fact> fs) { a.facts.insert(a.facts.end(), fs.begin(), fs.end()); };
  std::vector<std::string> targets;
  for (auto& t : q.targets)
    if (!run.rows_of(t).empty() && targets.size() < 12) targets.push_back(t);
  if (q.topics.count("rank")) add(ranking_facts(run, has_stem(lower(question), "slow") || has_stem(lower(question), "worst")));
  if (q.topics.count("status")) add(status_facts(run, targets));
  for (auto& t : targets) {
    auto prof = profiles.count(t) ? profiles.at(t) : std::vector<ProfileEvidence>{};
    for (auto& p : prof) a.cite(p.citation);
    if (q.topics.count("explain")) add(verdict_facts(run, t));
    if (q.topics.count("explain") || q.topics.count("roofline")) {
      add(roofline_facts(run, t));
      a.cite(run.ceilings_citation());
    }
    if (q.topics.count("explain") || q.topics.count("suggest")) add(counter_facts(prof, t));
    if (q.topics.count("energy")) add(energy_facts(run, t));
  }
  if (q.topics.count("suggest")) {
    Answer s = suggest(run, profiles, targets, tables, 5);
    a.suggestions = s.suggestions;
    for (auto& c : s.citations) a.cite(c);
  }
  a.summary.push_back(
      fmt::format("{} fact{} selected for {} (topics: {}) from {} — rule-based keyword matching over stored "
                  "measurements",
                  a.facts.size(), a.facts.size() == 1 ? "" : "s",
                  targets.empty() ? std::string("the whole run") : fmt::format("{}", fmt::join(targets, ", ")),
                  fmt::join(q.topics, ", "), run.citation().id));
  if (!q.targets.empty() && targets.empty())
    a.missing.push_back(
        fmt::format("the named targets ({}) have no result in {}", fmt::join(q.targets, ", "), run.citation().id));
  if (a.facts.empty() && a.suggestions.empty())
    a.missing.push_back(
        "no stored fact matches the question: name a target (ch07:transpose) or a chapter (ch07), or ask "
        "why / what is fastest / what to try next / which failed / energy");
  return a;
}

}  // namespace aisp::insight
