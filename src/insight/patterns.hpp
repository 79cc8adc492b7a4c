// The optimization-patterns table `aisp ai suggest` ranks from (data/optimization_patterns.json): one row
// per bottleneck id of the ncu decision tree or of the roofline placement, its priority, and fixes with the
// technique tags (data/technique_tags.json) that mean a fix was already tried.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace aisp::insight {

struct PatternFix {
  std::string text;
  std::vector<std::string> tags;
};

struct PatternRow {
  std::string id, title;
  double priority = 1;
  std::vector<PatternFix> fixes;
};

struct PatternTable {
  std::vector<PatternRow> rows;
  std::string source;  // the file it was read from
  const PatternRow* find(const std::string& id) const;
};

// Throws std::runtime_error naming `source` when the document is not an aisp.optimization_patterns/1 table.
PatternTable patterns_from_json(const nlohmann::json& doc, const std::string& source);

}  // namespace aisp::insight
