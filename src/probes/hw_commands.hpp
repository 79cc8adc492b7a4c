// `aisp hw …`: the hardware probes' command line. The CLI main calls add_hw_commands(root) once; it creates
// the `hw` subcommand and its children (peak, memory, cache, pcie, tc, fma, launch, roofline, p2p, nccl, disk,
// speed). Each child prints a table (or JSON with --json), writes the JSON document with --out FILE, and
// merges its measured ceilings into artifacts/hw/hardware_capabilities_<hwkey>.json (--caps FILE, --no-caps).
// Exit codes: 0 measured (or nothing to measure, e.g. p2p on one GPU), 1 a probe failed, 2 no usable GPU or a
// bad argument. Non-zero codes are raised as CLI::RuntimeError(code), which CLI11_PARSE / app.exit() return.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {

void add_hw_commands(CLI::App& root);

}  // namespace aisp
