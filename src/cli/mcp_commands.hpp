// `aisp mcp`: the MCP stdio server for AI assistants (src/mcp, docs/mcp.md); `aisp mcp --list` prints
// its tools.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
// Registers `mcp` on the root app. Register it last: the server offers tools for the subcommands the
// app has when `aisp mcp` runs, read from the command tree.
void add_mcp_commands(CLI::App& root);
}  // namespace aisp
