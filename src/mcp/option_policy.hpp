// Which options of a CLI command a client may set through a derived tool, and within what bounds.
//
// The server owns where files go and which files are read. A client never names a path: not the
// results store (--db), not an output (--out, --output, --artifacts-dir), not a directory a probe writes
// a test file into (hw disk --dir), not a file a command reads (--data, --caps, --from, --tags,
// --prices). Those options are left out of the tool's inputSchema, and the server passes its own values
// (or the command's default, relative to the server's work directory). A string option added to the CLI
// later whose help mentions a file, a directory or a path is hidden too until it is reviewed here, so a
// new path option cannot reach clients by accident. Every string value a client does send is refused
// when it looks like a path outside (absolute, `~`, a `..` segment), with a message that does not quote
// it, so no answer can confirm that a file exists or show what it holds.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "mcp/config.hpp"

namespace aisp::mcp {

// True when the server, not the client, decides this option's value (it is not in the inputSchema).
bool server_owned(const CommandSpec& command, const CommandOption& option);

// [minimum, maximum] for a numeric option where the default range would let a client ask for unbounded
// work or disk space (hw disk --mib), else nullopt (the type's range).
std::optional<std::pair<double, double>> option_bounds(const CommandSpec& command, const CommandOption& option);

// Throws ToolError when a client's string value for `option` looks like a file-system path that leaves
// the server's directories; the message names the option, never the value.
void check_option_value(const CommandOption& option, const std::string& value);

}  // namespace aisp::mcp
