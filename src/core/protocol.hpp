// Line-delimited JSON over a pair of pipe fds: the supervisor <-> worker protocol's framing. One JSON
// object per line; a benchmark's own stdout/stderr never touch these fds (the worker moves them to a log).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace aisp {

using json = nlohmann::json;

class LineChannel {
 public:
  LineChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}
  // False if the peer is gone (EPIPE) or the write failed.
  bool send(const json& message);
  enum class Status { ok, timeout, eof, error, bad_json };
  // Waits up to timeout_s (< 0: forever) for one complete line. On bad_json, `error_text` has the line.
  Status receive(json& message, double timeout_s);
  const std::string& error_text() const { return error_text_; }
  int read_fd() const { return read_fd_; }

 private:
  int read_fd_, write_fd_;
  std::string pending_;
  std::string error_text_;
};

}  // namespace aisp
