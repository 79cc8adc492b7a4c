// Runs one `aisp …` command (or any executable) as a child process for a tool: exec'd with an argv (no
// shell, so arguments are never expanded), in its own process group (cancel kills it with every process
// it started), stdin /dev/null, stdout and stderr captured through pipes. The server's protocol fd is
// close-on-exec, so a child can never write to the client. A crash, hang or abort of the child is a
// result for the tool to report; it cannot take the server down.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace aisp::mcp {

struct ChildOptions {
  double timeout_s = 0;              // 0: no limit
  const std::atomic<bool>* cancel = nullptr;  // polled every 100 ms; set -> SIGTERM, then SIGKILL
  double kill_grace_s = 3;           // between SIGTERM and SIGKILL (lets `aisp bench run` close files)
  size_t stdout_limit = size_t{32} << 20;  // bytes kept; the rest is read and dropped (stdout_truncated)
  size_t stderr_tail_lines = 60;     // the last N lines of stderr are kept
  std::function<void(const std::string&)> on_stderr_line;  // called on the calling thread, per line
  std::function<void(int pid)> on_started;
  // Working directory of the child ("" = the server's). The server runs every child in a directory of its
  // own inside the artifacts directory, so a relative default path of a command (artifacts/hw/…, a
  // probe's scratch file) can never land in whatever directory the client started the server in.
  std::string cwd;
  // NAME=value entries added to (or replacing those of) the server's environment.
  std::vector<std::string> env;
};

struct ChildResult {
  bool started = false;       // false: spawn failed (error says why)
  int exit_code = -1;         // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false, cancelled = false, stdout_truncated = false;
  std::string out;            // captured stdout (up to stdout_limit)
  std::vector<std::string> stderr_tail;
  std::string error;
  double wall_s = 0;
  std::string describe() const;  // "exited with code 2", "killed by SIGKILL after the 30 s timeout" ...
};

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

}  // namespace aisp::mcp
