// `bench stacking`: which techniques have been measured together and which are declared not to combine.
// The Benchmark API has no tag declaration yet, so each variant's tags are derived from its technique()
// line with the keyword vocabulary in data/technique_tags.json (editable; the report names the file).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "analysis/stacking.hpp"

namespace aisp::analysis {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string pair_key(const std::string& a, const std::string& b) { return a < b ? a + "|" + b : b + "|" + a; }

}  // namespace

TagVocabulary vocabulary_from_json(const json& doc, const std::string& source) {
  TagVocabulary v;
  v.source = source;
  if (!doc.is_object() || !doc.contains("tags") || !doc["tags"].is_object())
    throw std::runtime_error(source + ": a technique vocabulary needs a \"tags\" object");
  for (auto& [name, t] : doc["tags"].items()) {
    TagVocabulary::Tag tag{name, t.value("description", ""), {}};
    for (auto& k : t.value("keywords", json::array()))
      if (k.is_string()) tag.keywords.push_back(lower(k.get<std::string>()));
    v.tags.push_back(std::move(tag));
  }
  for (auto& c : doc.value("conflicts", json::array())) {
    auto pair = c.value("tags", std::vector<std::string>{});
    if (pair.size() != 2) throw std::runtime_error(source + ": each conflict names exactly two tags");
    for (auto& name : pair)
      if (std::none_of(v.tags.begin(), v.tags.end(), [&](const TagVocabulary::Tag& t) { return t.name == name; }))
        throw std::runtime_error(source + ": conflict names the unknown tag '" + name + "'");
    v.conflicts.push_back({pair[0], pair[1]});
    v.conflict_reasons[pair_key(pair[0], pair[1])] = c.value("reason", "");
  }
  return v;
}

std::vector<std::string> tags_for(const TagVocabulary& v, const std::string& technique) {
  std::string text = lower(technique);
  std::vector<std::string> out;
  for (auto& t : v.tags)
    for (auto& k : t.keywords)
      if (!k.empty() && text.find(k) != std::string::npos) {
        out.push_back(t.name);
        break;
      }
  std::sort(out.begin(), out.end());
  return out;
}

Stacking stacking(const std::vector<VariantRow>& rows, const TagVocabulary& vocabulary) {
  Stacking s;
  s.notes.push_back("tags are derived from each variant's technique() text with " + vocabulary.source +
                    " (the Benchmark API has no tag declaration yet)");
  std::map<std::string, std::vector<std::string>> tags_of;  // "<target> <variant>" -> tags
  std::map<std::string, double> speedup_of;
  std::set<std::string> seen;
  for (auto& r : rows) {
    if (r.baseline || !r.usable) continue;
    std::string id = r.target + " " + r.variant;
    auto tags = tags_for(vocabulary, r.technique);
    if (tags.empty()) {
      s.untagged.push_back(id + (r.technique.empty() ? " (no technique text)" : " (\"" + r.technique + "\")"));
      continue;
    }
    tags_of[id] = tags;
    speedup_of[id] = r.speedup;
    for (auto& t : tags) {
      seen.insert(t);
      s.variants_by_tag[t].push_back(id);
      double& best = s.best_speedup_by_tag.try_emplace(t, kNaN).first->second;
      if (known(r.speedup) && (!known(best) || r.speedup > best)) best = r.speedup;
    }
  }
  s.tags.assign(seen.begin(), seen.end());
  for (size_t i = 0; i < s.tags.size(); ++i)
    for (size_t j = i; j < s.tags.size(); ++j) {
      StackingCell c{s.tags[i], s.tags[j], "untested", {}, kNaN, ""};
      for (auto& [id, tags] : tags_of)
        if (std::count(tags.begin(), tags.end(), c.a) && std::count(tags.begin(), tags.end(), c.b)) {
          c.variants.push_back(id);
          double sp = speedup_of[id];
          if (known(sp) && (!known(c.best_speedup) || sp > c.best_speedup)) c.best_speedup = sp;
        }
      auto reason = vocabulary.conflict_reasons.find(pair_key(c.a, c.b));
      if (!c.variants.empty()) {
        c.state = "measured";
        if (reason != vocabulary.conflict_reasons.end()) {
          c.reason = "declared a conflict (" + reason->second + ") yet measured together: check the vocabulary";
          s.notes.push_back(c.a + " + " + c.b + ": " + c.reason);
        }
      } else if (reason != vocabulary.conflict_reasons.end()) {
        c.state = "conflict";
        c.reason = reason->second;
      }
      s.cells.push_back(std::move(c));
    }
  if (s.tags.size() > 1) {
    size_t measured_pairs = 0;
    for (auto& c : s.cells) measured_pairs += c.a != c.b && c.state == "measured";
    if (measured_pairs == 0)
      s.notes.push_back("no variant combines two techniques yet: every off-diagonal cell is a conflict or untested");
  }
  return s;
}

}  // namespace aisp::analysis
