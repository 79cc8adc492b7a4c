#include "store/telemetry_series.hpp"

namespace aisp {

SeriesByMetric numeric_series(const nlohmann::json& obj, std::initializer_list<const char*> skip) {
  SeriesByMetric out;
  if (!obj.is_object()) return out;
  for (auto& [key, val] : obj.items()) {
    bool skipped = false;
    for (auto* s : skip) skipped |= key == s;
    if (skipped) continue;
    std::vector<double> values;
    if (val.is_number()) values.push_back(val.get<double>());
    else if (val.is_array())
      for (auto& x : val)
        if (x.is_number()) values.push_back(x.get<double>());
    if (!values.empty()) out.emplace(key, std::move(values));
  }
  return out;
}

SeriesByMetric variant_telemetry(const nlohmann::json& variant_doc) {
  auto it = variant_doc.find("telemetry");
  return it != variant_doc.end() ? numeric_series(*it) : SeriesByMetric{};
}

}  // namespace aisp
