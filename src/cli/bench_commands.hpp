#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_bench_commands(CLI::App& root);
}
