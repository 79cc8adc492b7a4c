// Exports of a bench run in other harnesses' JSON formats, so their comparison tools work on our runs:
//   Google Benchmark JSON (tools/compare.py): context + benchmarks[], one "iteration" entry per variant
//     named "chNN:example/variant" plus _mean/_median/_stddev/_cv aggregates, times in microseconds;
//   NVBench JSON (scripts/nvbench_compare.py): meta/devices/benchmarks -> states -> summaries with
//     nvbench's tags ("nv/cold/time/gpu/mean" ...), times in seconds, numbers as strings as nvbench does.
// Variants without trustworthy times (failed, invalid, skipped) are exported as errors/skipped states,
// never as numbers: another tool must not turn an INVALID result into a win.
// Pure functions of the results and the run's manifest.json; docs/result-schema.md describes the mapping.
#pragma once
#include <string>
#include <vector>

#include "core/result.hpp"

namespace aisp {

struct ExportOptions {
  // gbench: one "iteration" entry per raw sample (repetitions = samples) instead of one per variant,
  // so compare.py can run its Mann-Whitney U test over them.
  bool samples_as_repetitions = false;
  std::string source;  // where the results came from (recorded in the export)
};

json to_gbench_json(const std::vector<TargetResult>& targets, const json& manifest, const ExportOptions& options = {});
json to_nvbench_json(const std::vector<TargetResult>& targets, const json& manifest, const ExportOptions& options = {});

// "ch07:copy_scalar/baseline": the benchmark name both exports use for a variant.
std::string export_name(const TargetResult& t, const VariantResult& v);
// Whether a variant's samples may be exported as timings (measured and not failed/invalid).
bool exportable_timing(const VariantResult& v);
// Count of CPUs in a Linux cpulist ("0-15,32-47" -> 32); 0 when unparsable.
int cpulist_count(const std::string& list);

}  // namespace aisp
