// `aisp serve`: the dashboard. The server itself is the aisp-serve executable next to `aisp` (it links
// cpp-httplib, which `aisp` must not: src/serve/dashboard_server.hpp says why); this subcommand parses the
// options and replaces itself with it.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_serve_commands(CLI::App& root);
}
