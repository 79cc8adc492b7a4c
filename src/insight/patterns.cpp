#include "insight/patterns.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace aisp::insight {

const PatternRow* PatternTable::find(const std::string& id) const {
  for (auto& r : rows)
    if (r.id == id) return &r;
  return nullptr;
}

PatternTable patterns_from_json(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object() || doc.value("schema", "") != "aisp.optimization_patterns/1" || !doc.contains("patterns") ||
      !doc["patterns"].is_array())
    throw std::runtime_error(source + ": not an aisp.optimization_patterns/1 table");
  PatternTable t;
  t.source = source;
  try {
    for (auto& p : doc["patterns"]) {
      PatternRow r{p.at("id").get<std::string>(), p.at("title").get<std::string>(), p.value("priority", 1.0), {}};
      for (auto& f : p.at("fixes"))
        r.fixes.push_back({f.at("text").get<std::string>(), f.value("tags", std::vector<std::string>{})});
      t.rows.push_back(std::move(r));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: malformed pattern row: {}", source, e.what()));
  }
  return t;
}

}  // namespace aisp::insight
