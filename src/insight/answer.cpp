#include "insight/answer.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aisp::insight {

void Answer::cite(const Citation& c) {
  auto same = [&](const Citation& x) { return x.id == c.id; };
  if (std::none_of(citations.begin(), citations.end(), same)) citations.push_back(c);
}

json to_json(const Answer& a) {
  json facts = json::array(), suggestions = json::array(), citations = json::array();
  for (auto& f : a.facts)
    facts.push_back({{"topic", f.topic},
                     {"target", f.target},
                     {"variant", f.variant},
                     {"text", f.text},
                     {"values", f.values},
                     {"cite", f.cite}});
  for (auto& s : a.suggestions)
    suggestions.push_back({{"target", s.target},
                           {"pattern", s.pattern},
                           {"title", s.title},
                           {"score", s.score},
                           {"why", s.why},
                           {"fixes", s.fixes},
                           {"applied", s.applied},
                           {"cites", s.cites}});
  for (auto& c : a.citations) citations.push_back({{"id", c.id}, {"kind", c.kind}, {"detail", c.detail}});
  json j = {{"schema", "aisp.ai_answer/1"},
            {"command", a.command},
            {"subject", a.subject},
            {"summary", a.summary},
            {"facts", facts},
            {"missing", a.missing},
            {"suggestions", suggestions},
            {"citations", citations},
            {"source", a.source},
            {"grounding", "rule-based over stored measurements"}};
  j["prose"] = a.prose.empty() ? json(nullptr) : json(a.prose);
  j["prose_model"] = a.prose_model.empty() ? json(nullptr) : json(a.prose_model);
  return j;
}

std::string to_text(const Answer& a) {
  std::string out;
  for (auto& s : a.summary) out += s + "\n";
  if (!a.prose.empty())
    out += fmt::format("\n{}\n(prose by {} from the facts below; the facts are what was measured)\n", a.prose, a.prose_model);
  if (!a.facts.empty()) out += "\nfacts:\n";
  for (auto& f : a.facts)
    out += fmt::format("  - {}{} [{}]\n", f.target.empty() ? "" : f.target + (f.variant.empty() ? "" : " " + f.variant) + ": ",
                       f.text, f.cite);
  if (!a.suggestions.empty()) out += "\nsuggestions (highest score first):\n";
  for (size_t i = 0; i < a.suggestions.size(); ++i) {
    auto& s = a.suggestions[i];
    out += fmt::format("  {}. {} — {} (score {:.2f}) [{}]\n     why: {}\n", i + 1, s.target, s.title, s.score,
                       fmt::join(s.cites, ", "), s.why);
    for (auto& f : s.fixes) out += "     try: " + f + "\n";
    for (auto& f : s.applied) out += "     done: " + f + "\n";
  }
  if (!a.missing.empty()) out += "\nmissing:\n";
  for (auto& m : a.missing) out += "  - " + m + "\n";
  if (!a.citations.empty()) out += "\nsources:\n";
  for (auto& c : a.citations) out += fmt::format("  [{}] {}\n", c.id, c.detail);
  if (!a.source.empty()) out += "from: " + a.source + "\n";
  return out;
}

}  // namespace aisp::insight
