// JSON forms of stored results for the REST API. Field names follow the results schema and the CLI's
// `--json` output where those exist (docs/result-schema.md); a measurement that is absent is null, never 0
// (a failed variant's 0 ms median is "not measured", not "infinitely fast").
#pragma once
#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "store/store.hpp"

namespace aisp::serve {

using json = nlohmann::json;

json num(double v);  // NaN and infinities → null
json run_json(const RunInfo& r);
// The badge a target shows. Decided by the status first: failed_regression → REGRESSION, failed_error/failed_verification → FAILED,
// failed_no_speedup → MISSED (or the SAME/SLOWER/INCONCLUSIVE verdict), invalid → INVALID, skipped →
// SKIPPED; only a succeeded target shows its best variant's verdict (FASTER, SAME...).
std::string target_badge(const TargetResult& t);
// The same rule for one status word and verdict (history rows).
std::string badge_for(const std::string& status, const std::string& verdict);
// One line saying why a target failed, regressed or missed its expectation; empty when nothing did.
std::string target_reason(const TargetResult& t);
// One variant without its raw samples; `workload` gives the achieved rates (bytes or FLOPs per second).
json variant_json(const VariantResult& v, bool baseline, const json& workload);
// A target's result; `with_samples` adds each variant's kept GPU samples (ms) and its full check list.
json target_json(const TargetResult& t, bool with_samples = false);
json history_row_json(const HistoryRow& r);
json compare_row_json(const CompareRow& r);

}  // namespace aisp::serve
