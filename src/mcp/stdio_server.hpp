// The stdio transport: newline-delimited JSON-RPC on stdin/stdout, logs on stderr (research note §1.6,
// §1.8). At start the real stdout is moved to a private close-on-exec descriptor and fd 1 is pointed at
// stderr, so a stray printf, a library banner or a child process can never put a non-protocol byte on
// the client's stream.
#pragma once
#include <vector>

#include "mcp/session.hpp"

namespace aisp::mcp {

// Serves until stdin reaches end-of-file (or the client closes our stdout), then cancels calls in
// flight and returns 0. `on_shutdown` runs after the session has stopped (the caller cancels its jobs).
int serve_stdio(std::vector<Tool> tools, SessionOptions options, const std::function<void()>& on_shutdown = {});

// One line to stderr, prefixed "[aisp mcp] ", written with a single write() so concurrent lines do not
// interleave.
void log_to_stderr(const std::string& line);

}  // namespace aisp::mcp
