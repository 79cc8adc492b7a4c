// Numeric telemetry series as the store reads them out of JSON: a variant's "telemetry" object (kept in
// the variant's `doc`) and the per-variant objects of samples/<target>.json (kept in the `telemetry`
// table, because no results field holds them). Ingest, the v4 migration and the loader use the same
// reading, so a series dropped from the table because the doc holds it comes back identical.
#pragma once
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aisp {

// metric -> values. A number is a one-value series; an array keeps its numeric items in order; anything
// else, or a series with no numbers, is left out.
using SeriesByMetric = std::map<std::string, std::vector<double>>;
SeriesByMetric numeric_series(const nlohmann::json& obj, std::initializer_list<const char*> skip = {});

// The series of a variant's "telemetry" object (empty when the variant has none).
SeriesByMetric variant_telemetry(const nlohmann::json& variant_doc);

}  // namespace aisp
