// `aisp bench tui`: the terminal UI over the results store and the live runs (src/tui).
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {

void add_tui_command(CLI::App& bench);

}  // namespace aisp
