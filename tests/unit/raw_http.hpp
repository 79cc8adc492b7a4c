// Raw HTTP over loopback sockets for the serve tests that must write what no HTTP client library sends
// (test_serve_attacks.cpp, test_serve_robustness.cpp): a connection from a chosen 127/8 address, bytes sent
// whole, everything read until the server closes, and the status of a response.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace aisp::serve::testing {

// A TCP connection to the server on 127.0.0.1 from the loopback address `from` (any 127/8 address is this
// machine: "another client"); -1 when it cannot be made.
inline int connect_from(int port, const char* from = "127.0.0.1") {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, from, &src.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof src) != 0) {
    close(fd);
    return -1;
  }
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(port));
  dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof dst) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, const std::string& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;  // the server may close mid-upload when it has seen enough to refuse
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends until it closes the connection or `seconds` pass.
inline std::string read_until_close(int fd, double seconds = 15) {
  using Clock = std::chrono::steady_clock;
  std::string out;
  auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
  char buf[65536];
  while (Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (poll(&p, 1, static_cast<int>(std::max<long long>(left, 1))) <= 0) break;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// The HTTP status of a response; 0 when it does not start with a status line.
inline int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return 0;
  return std::atoi(response.substr(9, 3).c_str());
}

}  // namespace aisp::serve::testing
