// `aisp bench export` (NVBench / Google Benchmark JSON of a run) and `aisp bench expectations`.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_export_commands(CLI::App& bench);
void add_expectation_commands(CLI::App& bench);
}  // namespace aisp
