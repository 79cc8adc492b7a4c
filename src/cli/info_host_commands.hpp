// `aisp info status | topology | software`: where this machine stands (GPU, driver, store, last run), how
// its GPUs, NICs and NUMA nodes are connected, and which CUDA pieces and Python packages it has. Each part
// says "not found" (and where it looked) instead of failing, so they work on a machine without a GPU.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
// Registers the three subcommands under `info` (src/cli/info_commands.cpp makes `info`).
void add_info_host_commands(CLI::App& info);
}  // namespace aisp
