// `bench stacking`: which optimization techniques were measured together, which conflict, which are untested.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/variant_metrics.hpp"

namespace aisp::analysis {

// Technique tags: a vocabulary (tag -> keywords matched in technique() text, and declared conflicts).
// Variants do not declare tags in the Benchmark API yet, so tags are derived from the technique line.
struct TagVocabulary {
  struct Tag {
    std::string name, description;
    std::vector<std::string> keywords;  // lower-case substrings of technique() text
  };
  std::vector<Tag> tags;
  std::vector<std::pair<std::string, std::string>> conflicts;
  std::map<std::string, std::string> conflict_reasons;  // "a|b" -> why they cannot stack
  std::string source;
};
TagVocabulary vocabulary_from_json(const json& doc, const std::string& source);
std::vector<std::string> tags_for(const TagVocabulary& v, const std::string& technique);

struct StackingCell {
  std::string a, b;
  std::string state;  // "measured" | "conflict" | "untested"
  std::vector<std::string> variants;  // variants that carry both tags
  double best_speedup = kNaN;
  std::string reason;  // conflict reason
};
struct Stacking {
  std::vector<std::string> tags;  // tags seen in the data, sorted
  std::map<std::string, std::vector<std::string>> variants_by_tag;
  std::map<std::string, double> best_speedup_by_tag;
  std::vector<StackingCell> cells;  // upper triangle incl. the diagonal, row-major over `tags`
  std::vector<std::string> untagged;  // variants whose technique matched no tag
  std::vector<std::string> notes;
};
Stacking stacking(const std::vector<VariantRow>& rows, const TagVocabulary& vocabulary);

}  // namespace aisp::analysis
