#include "mcp/stdio_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

namespace aisp::mcp {

namespace {

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;  // EPIPE: the client is gone
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void log_to_stderr(const std::string& line) {
  std::string out = "[aisp mcp] " + line + "\n";
  write_all(STDERR_FILENO, out.data(), out.size());
}

int serve_stdio(std::vector<Tool> tools, SessionOptions options, const std::function<void()>& on_shutdown) {
  // A client that disappears makes writes fail with EPIPE instead of killing the server mid-cleanup.
  ::signal(SIGPIPE, SIG_IGN);
  int proto = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (proto < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    log_to_stderr(std::string("cannot set up the protocol stream: ") + std::strerror(errno));
    return 1;
  }
  // SIGTERM/SIGINT/SIGHUP (a client that gives up on waiting) end the session like end-of-file: calls
  // and jobs are cancelled and their process groups killed, instead of leaving a benchmark running on
  // the GPU for nobody. The signals are taken by one thread with sigwait, which wakes the reader.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&stop_signals, sig);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // before any thread exists, so all inherit it
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) {
    log_to_stderr(std::string("pipe: ") + std::strerror(errno));
    return 1;
  }
  std::thread([stop_signals, fd = wake[1]] {
    int sig = 0;
    if (sigwait(&stop_signals, &sig) == 0) {
      log_to_stderr(std::string("received SIG") + (sigabbrev_np(sig) ? sigabbrev_np(sig) : "?") + ": shutting down");
      (void)!::write(fd, "x", 1);
    }
  }).detach();  // blocked in sigwait until the process exits, unless a signal comes
  std::atomic<bool> output_closed{false};
  auto sink = [proto, &output_closed](const json& message) {
    // dump() escapes control characters, so a message is exactly one line; invalid UTF-8 from a child's
    // output is replaced instead of throwing.
    std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    if (!output_closed && !write_all(proto, line.data(), line.size())) output_closed = true;
  };
  if (!options.log) options.log = log_to_stderr;
  const size_t max_line = options.limits.max_line_bytes;
  Session session(std::move(tools), sink, std::move(options));

  std::string buffer;
  bool discarding = false;  // inside a line that is over the limit: drop bytes up to its newline
  size_t discarded = 0;
  char chunk[65536];
  while (!output_closed) {
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {wake[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents) break;  // a stop signal
    ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end-of-file (or a read error): the client is done
    size_t start = 0;
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      if (chunk[i] != '\n') continue;
      if (discarding) {
        session.handle_oversized_line(discarded + (i - start));
        discarding = false;
        discarded = 0;
      } else {
        buffer.append(chunk + start, i - start);
        if (!buffer.empty() && buffer.back() == '\r') buffer.pop_back();
        if (buffer.find_first_not_of(" \t") != std::string::npos) session.handle_line(buffer);
      }
      buffer.clear();
      start = i + 1;
    }
    size_t rest = static_cast<size_t>(n) - start;
    if (discarding) {
      discarded += rest;
    } else if (buffer.size() + rest > max_line) {
      discarding = true;
      discarded = buffer.size() + rest;
      buffer.clear();
      buffer.shrink_to_fit();
    } else {
      buffer.append(chunk + start, rest);
    }
  }
  // A last line without a newline is still a message (some clients do not end the final one).
  if (!discarding && buffer.find_first_not_of(" \t\r") != std::string::npos && !output_closed) {
    if (buffer.back() == '\r') buffer.pop_back();
    session.handle_line(buffer);
  }
  session.shutdown();
  if (on_shutdown) on_shutdown();
  ::close(proto);
  return 0;
}

}  // namespace aisp::mcp
