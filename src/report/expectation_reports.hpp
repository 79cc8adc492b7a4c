// Reports about expectations: the per-run check (`reports/expectations_check.md`) and the seed's
// proof-of-benefit table (`proof_of_benefit_issues.csv` / `.md`, same columns as the seed's
// core/analysis/analyze_expectations.py), built from the expectation files.
#pragma once
#include <string>
#include <vector>

#include "core/expectation_check.hpp"

namespace aisp {

std::string expectations_check_markdown(const ExpectationCheckReport& report);

// Severity of one entry, with the seed's words: "fail" (a failed status), "needs-work" (best
// improvement below `min_speedup`), else "ok".
std::string proof_of_benefit_severity(const ExpectationEntry& e, double min_speedup);
// Speedup for the speed goal; baseline/optimized peak memory for the memory goal.
double best_improvement(const ExpectationEntry& e);

// Columns: chapter, example, severity, best_improvement, optimization_goal, baseline_ms,
// baseline_memory_mb, optimized_memory_mb, artifact_dir, notes, optimizations.
std::string proof_of_benefit_csv(const std::vector<ListedExpectation>& entries, double min_speedup);
// Per chapter: Fail / Needs Work / Skipped / Total / Latest Artifact, then the rows that need attention.
std::string proof_of_benefit_markdown(const std::vector<ListedExpectation>& entries, double min_speedup);

}  // namespace aisp
