// Human-facing reports of a bench run: Markdown (reports/benchmark_test_results.md) and CSV (.csv).
#pragma once
#include <string>
#include <vector>

#include "core/result.hpp"

namespace aisp {

std::string markdown_report(const std::vector<TargetResult>& targets, const json& manifest);
std::string csv_report(const std::vector<TargetResult>& targets);

}  // namespace aisp
