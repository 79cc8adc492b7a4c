// `aisp clean`: artifact retention (src/core/artifact_retention.hpp), dry-run unless --yes.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_clean_commands(CLI::App& root);
}  // namespace aisp
