#include "core/protocol.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace aisp {

bool LineChannel::send(const json& message) {
  // Replace invalid UTF-8 (a benchmark's exception text may hold any bytes) rather than throw.
  std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  size_t off = 0;
  while (off < line.size()) {
    ssize_t n = ::write(write_fd_, line.data() + off, line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

LineChannel::Status LineChannel::receive(json& message, double timeout_s) {
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (line.empty()) continue;
      message = json::parse(line, nullptr, false);
      if (message.is_discarded()) {
        error_text_ = line;
        return Status::bad_json;
      }
      return Status::ok;
    }
    int wait_ms = -1;
    if (timeout_s >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Status::timeout;
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd p{read_fd_, POLLIN, 0};
    int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Status::error;
    if (r == 0) return Status::timeout;
    char buf[65536];
    ssize_t n = ::read(read_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::error;
    if (n == 0) return Status::eof;
    pending_.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace aisp
