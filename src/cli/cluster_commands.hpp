// `aisp cluster slurm`: fleets through an existing scheduler (issue 26, docs/multi-gpu.md).
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_cluster_commands(CLI::App& root);
}  // namespace aisp
