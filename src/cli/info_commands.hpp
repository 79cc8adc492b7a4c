#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace aisp {
void add_info_commands(CLI::App& root);
// Everything the manifest records about the GPU(s), driver, libraries and host (also `aisp info gpu --json`).
nlohmann::json collect_system_info();
}  // namespace aisp
