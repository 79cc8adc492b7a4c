#include "serve/guarded_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace aisp::serve {

namespace {

using Clock = std::chrono::steady_clock;

thread_local bool tl_close_after = false;

int to_ms(double seconds) { return std::max(0, static_cast<int>(seconds * 1000)); }

// Waits for `events` on `sock` for at most `ms`; true when ready.
bool wait_for(int sock, short events, int ms) {
  pollfd p{sock, events, 0};
  int r;
  do {
    r = ::poll(&p, 1, ms);
  } while (r < 0 && errno == EINTR);
  return r > 0 && (p.revents & (events | POLLHUP | POLLERR));
}

std::string address_of(const sockaddr_storage& a, int* port) {
  char buf[INET6_ADDRSTRLEN] = "";
  if (a.ss_family == AF_INET) {
    auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
    inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
    if (port) *port = ntohs(v4->sin_port);
  } else if (a.ss_family == AF_INET6) {
    auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
    inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
    if (port) *port = ntohs(v6->sin6_port);
    std::string s = buf;
    if (s.rfind("::ffff:", 0) == 0 && s.find('.') != std::string::npos) return s.substr(7);  // v4-mapped
  }
  return buf;
}

// A socket as an httplib::Stream, with a buffer in front: the request head this class read (and any
// bytes past it: a body, or the next pipelined request) is handed to httplib before the socket is read
// again. Timeouts as httplib's own SocketStream: per recv()/send().
class BufferedSocketStream final : public httplib::Stream {
 public:
  BufferedSocketStream(int sock, const ConnectionLimits& l) : sock_(sock), limits_(l) {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (getpeername(sock, reinterpret_cast<sockaddr*>(&a), &len) == 0) peer_ip = address_of(a, &peer_port);
    len = sizeof a;
    if (getsockname(sock, reinterpret_cast<sockaddr*>(&a), &len) == 0) local_ip = address_of(a, &local_port);
  }

  bool is_readable() const override {
    return pos_ < buffer_.size() || wait_for(sock_, POLLIN, to_ms(limits_.read_timeout_seconds));
  }
  bool is_writable() const override { return wait_for(sock_, POLLOUT, to_ms(limits_.write_timeout_seconds)); }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ < buffer_.size()) {
      size_t n = std::min(size, buffer_.size() - pos_);
      std::memcpy(ptr, buffer_.data() + pos_, n);
      pos_ += n;
      return static_cast<ssize_t>(n);
    }
    if (!wait_for(sock_, POLLIN, to_ms(limits_.read_timeout_seconds))) return -1;
    ssize_t n;
    do {
      n = ::recv(sock_, ptr, size, 0);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  using httplib::Stream::write;
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do {
      n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_ip;
    port = peer_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = local_ip;
    port = local_port;
  }
  socket_t socket() const override { return sock_; }

  enum class Head { ok, closed, idle, timeout, too_large, line_too_long, too_many_lines, stopping };

  // Reads until the buffer holds one whole request head ("\r\n\r\n"), within the limits. `first_wait`:
  // how long to wait for its first byte; then the whole head within limits_.head_seconds.
  Head read_head(double first_wait, const std::atomic<socket_t>& listening) {
    if (pos_ > 0) {  // keep only what is left of the previous request (a pipelined one)
      buffer_.erase(0, pos_);
      pos_ = 0;
    }
    bool started = !buffer_.empty();
    auto deadline = Clock::now() + std::chrono::milliseconds(to_ms(started ? limits_.head_seconds : first_wait));
    char chunk[16384];
    for (;;) {
      if (Head h = check_head(); h != Head::closed) return h;  // closed here means "incomplete"
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return started ? Head::timeout : Head::idle;
      if (listening == INVALID_SOCKET) return Head::stopping;
      // Short slices, so a stopping server does not wait out a client's deadline.
      if (!wait_for(sock_, POLLIN, static_cast<int>(std::min<long long>(left, 100)))) continue;
      ssize_t n;
      do {
        n = ::recv(sock_, chunk, sizeof chunk, 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return Head::closed;
      if (!started) {
        started = true;
        deadline = Clock::now() + std::chrono::milliseconds(to_ms(limits_.head_seconds));
      }
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  // ok: a whole head is buffered and within the limits; closed: not complete yet; else the limit broken.
  Head check_head() const {
    size_t end = buffer_.find("\r\n\r\n");
    size_t head = end == std::string::npos ? buffer_.size() : end + 4;
    size_t first_line = buffer_.find('\n');
    if ((first_line == std::string::npos ? head : first_line) > limits_.max_request_line) return Head::line_too_long;
    if (head > limits_.max_head_bytes) return Head::too_large;
    // Header lines: every '\n' after the request line's, but the blank line ending the head.
    size_t lines = static_cast<size_t>(std::count(buffer_.begin(), buffer_.begin() + static_cast<long>(head), '\n'));
    if (lines > limits_.max_header_lines + 2) return Head::too_many_lines;
    return end == std::string::npos ? Head::closed : Head::ok;
  }

  int sock_;
  const ConnectionLimits& limits_;
  std::string buffer_;
  size_t pos_ = 0;

 public:
  std::string peer_ip, local_ip;
  int peer_port = 0, local_port = 0;
};

// A refusal written straight to the socket (the request was never handed to httplib), then a short
// drain of what the client is still sending, so the close does not reset the connection before the
// client has read the answer.
void refuse(int sock, int status, const char* reason, const std::string& message, double drain_seconds) {
  std::string body = R"({"status": "error", "result": null, "error": ")" + message + "\"}";
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                     "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                     "\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n" +
                     (status == 503 ? "Retry-After: 1\r\n" : "") + "\r\n";
  std::string all = head + body;
  size_t sent = 0;
  auto until = Clock::now() + std::chrono::milliseconds(500);
  while (sent < all.size() && Clock::now() < until) {
    if (!wait_for(sock, POLLOUT, 100)) continue;
    ssize_t n = ::send(sock, all.data() + sent, all.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0 && errno != EAGAIN && errno != EINTR) break;
    if (n > 0) sent += static_cast<size_t>(n);
  }
  ::shutdown(sock, SHUT_WR);
  char sink[16384];
  auto drain_until = Clock::now() + std::chrono::milliseconds(to_ms(drain_seconds));
  size_t drained = 0;
  while (drained < (16u << 20)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(drain_until - Clock::now()).count();
    if (left <= 0 || !wait_for(sock, POLLIN, static_cast<int>(left))) break;
    ssize_t n = ::recv(sock, sink, sizeof sink, 0);
    if (n <= 0) break;
    drained += static_cast<size_t>(n);
  }
}

}  // namespace

GuardedServer::GuardedServer(ConnectionLimits limits) : limits_(limits) {
  size_t threads = static_cast<size_t>(limits_.max_connections + limits_.spare_threads);
  new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
}

void GuardedServer::close_after_response() { tl_close_after = true; }

void GuardedServer::widen_backlog(int backlog) {
  socket_t s = svr_sock_;
  if (s != INVALID_SOCKET) ::listen(s, backlog);  // on a listening socket: only the backlog changes
}

bool GuardedServer::admit(const std::string& client) {
  std::lock_guard lock(mutex_);
  if (active_ >= limits_.max_connections) {
    ++counters_.refused_total;
    return false;
  }
  int& mine = per_client_[client];
  if (mine >= limits_.max_client_connections) {
    if (mine == 0) per_client_.erase(client);
    ++counters_.refused_client;
    return false;
  }
  ++mine;
  ++active_;
  ++counters_.admitted;
  return true;
}

void GuardedServer::release(const std::string& client) {
  std::lock_guard lock(mutex_);
  --active_;
  auto it = per_client_.find(client);
  if (it != per_client_.end() && --it->second <= 0) per_client_.erase(it);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  BufferedSocketStream stream(sock, limits_);
  if (!admit(stream.peer_ip)) {
    refuse(sock, 503, "Service Unavailable",
           "too many connections (this client or in total); retry in a moment", 0.05);
    ::close(sock);
    return true;
  }
  bool ret = true, released = false;
  size_t left = limits_.keep_alive_max_requests;
  bool first = true;
  while (left > 0) {
    using Head = BufferedSocketStream::Head;
    Head h = stream.read_head(first ? limits_.first_byte_seconds : limits_.idle_seconds, svr_sock_);
    if (h == Head::closed || h == Head::stopping) break;
    if (h == Head::idle) {
      ++counters_.idle_closes;
      break;
    }
    if (h == Head::timeout) {
      ++counters_.head_timeouts;
      refuse(sock, 408, "Request Timeout", "the request head did not arrive in time", 0.05);
      break;
    }
    if (h != Head::ok) {
      ++counters_.heads_too_large;
      if (h == Head::line_too_long) refuse(sock, 414, "URI Too Long", "request line too long", 1.0);
      else if (h == Head::too_many_lines) refuse(sock, 431, "Request Header Fields Too Large", "too many header lines", 1.0);
      else refuse(sock, 431, "Request Header Fields Too Large", "request head too large", 1.0);
      break;
    }
    first = false;
    // The last request this connection may make: its place is given back before the answer is written,
    // so a client that reconnects the moment it reads "Connection: close" does not find its own old
    // connection still counted (wrk at 64 connections got two 503s that way).
    if (left == 1 && !released) {
      release(stream.peer_ip);
      released = true;
    }
    bool connection_closed = false;
    tl_close_after = false;
    ret = process_request(stream, /*close_connection=*/left == 1, connection_closed,
                          [this](httplib::Request& req) {
                            if (on_request) on_request(req);
                          });
    if (!ret || connection_closed || tl_close_after) break;
    --left;
  }
  if (!released) release(stream.peer_ip);
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

}  // namespace aisp::serve
