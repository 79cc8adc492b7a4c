// `aisp bench analyze | whatif | stacking | power | cost | scaling | report | utils`: the analysis engine
// (src/analysis) from the command line, over the results store (default) or one results file (--data).
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace aisp {

// Registers the analysis subcommands under `bench`.
void add_analysis_commands(CLI::App& bench);

// `bench export --format csv|json|html` (called by export_commands.cpp): the analysed rows as CSV, the
// analysis document as JSON, or the HTML report, for the run directory or results file `input`.
void export_analysis(const std::string& input, const std::string& format, const std::string& output);

}  // namespace aisp
