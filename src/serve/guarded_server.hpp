// An httplib::Server that owns each connection's loop, so that the dashboard can hold against hostile
// clients where cpp-httplib 0.11 (Debian's, compiled; its limits are fixed at build time) cannot:
//  - connections are admitted against a total cap and a per-client-address cap; one over either is
//    answered 503 at once (a few spare threads do only that), never queued behind stalled ones;
//  - a request head must arrive whole within a deadline counted from its first byte (httplib's read
//    timeout is per recv(), so a client sending a byte every few seconds kept a thread for ever), and
//    the first byte within an idle limit;
//  - a request head is capped in bytes and in header lines (httplib 0.11 caps each line at 8 KiB but
//    not their number: 100,000 headers were accepted);
//  - pipelined requests are served in order (bytes read past one head are kept for the next).
// The request itself is parsed and routed by httplib (Server::process_request, a protected member) over a
// Stream that first hands back the head read here. Nothing in this class knows about the dashboard.
#pragma once
#include <httplib.h>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace aisp::serve {

struct ConnectionLimits {
  int max_connections = 128;        // connections served at once, in total
  int max_client_connections = 64;  // ... from one client address
  double first_byte_seconds = 3;    // a new connection must start its request within this
  double idle_seconds = 2;          // a kept-alive connection is closed after this long without a request
  double head_seconds = 3;          // a request head must be complete this long after its first byte
  size_t max_head_bytes = 32 * 1024;  // request line + headers
  size_t max_request_line = 8 * 1024; // 414 beyond (httplib's own URI limit is the same)
  size_t max_header_lines = 100;
  size_t keep_alive_max_requests = 10000;  // then the connection is closed (and reopened by the client)
  double read_timeout_seconds = 5;  // per recv() while reading a body
  double write_timeout_seconds = 5; // per send()
  int spare_threads = 8;            // threads beyond max_connections, so refusals are never queued
};

// What the guard refused, for tests and the access log.
struct GuardCounters {
  std::atomic<uint64_t> admitted{0}, refused_total{0}, refused_client{0}, head_timeouts{0}, idle_closes{0},
      heads_too_large{0};
};

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ConnectionLimits limits);

  // Runs on every request before routing, with the request still mutable (httplib's setup_request hook):
  // the dashboard uses it to drop byte ranges it will not serve.
  std::function<void(httplib::Request&)> on_request;
  // After a handler sets this (same thread), the connection is closed once the answer is written: used
  // where unread request bytes must not be taken for the next request.
  static void close_after_response();

  const ConnectionLimits& limits() const { return limits_; }
  const GuardCounters& counters() const { return counters_; }
  // The listening socket's accept backlog (httplib 0.11 compiles in 5, too small for 64 clients
  // connecting at once: the rest wait out a SYN retransmit, 1 s). Call after bind.
  void widen_backlog(int backlog);

 private:
  bool process_and_close_socket(socket_t sock) override;

  bool admit(const std::string& client);
  void release(const std::string& client);

  ConnectionLimits limits_;
  GuardCounters counters_;
  std::mutex mutex_;
  int active_ = 0;
  std::map<std::string, int> per_client_;
};

}  // namespace aisp::serve
