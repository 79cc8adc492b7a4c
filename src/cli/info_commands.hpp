#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/environment_gate.hpp"

namespace aisp {
void add_info_commands(CLI::App& root);
// Everything the manifest records about the GPU(s), driver, libraries and host (also `aisp info gpu --json`).
nlohmann::json collect_system_info();
// The environment gate for this host plus the GPU facts in `system_info` (also `aisp info env`).
EnvironmentReport environment_gate(const nlohmann::json& system_info, ValidityProfile profile);
}  // namespace aisp
