// `aisp serve`: the dashboard's HTTP server (cpp-httplib) — the REST API under /api and the web UI.
//
// Why a separate executable (aisp-serve) that `aisp serve` starts: Debian packages cpp-httplib only as a
// shared library (libcpp-httplib.so.0.11), which the GPU machines do not have. Linking it into `aisp` would
// stop the whole binary from starting there (DESIGN §3: `aisp` must run on the GPU machine), so only
// aisp-serve depends on it.
//
// Robustness rules (tested in tests/unit/test_serve_*.cpp):
//  - the store is opened read-only; nothing a request does can write to it;
//  - every API answer is the envelope {"status": "ok"|"error", "result", "error"}; a bad parameter is a
//    400, an unknown id a 404, a handler failure a 500 with its message, never a dropped connection;
//  - requests are routed without regular expressions (a long path cannot blow the regex engine's stack);
//  - only GET and HEAD are served (405 otherwise) and request bodies are capped, since nothing accepts one;
//  - a client silent for the read timeout (5 s) is disconnected, an idle keep-alive one after 2 s; header
//    lines over 8 KiB and request URIs over 8 KiB are refused by httplib. Each open connection holds one
//    of `threads` threads: a stalled client costs a thread for ~7 s, never the server (docs/dashboard.md).
#pragma once
#include <filesystem>
#include <memory>
#include <string>

#include "serve/api.hpp"

namespace aisp::serve {

struct ServeConfig {
  std::filesystem::path db;
  std::filesystem::path web_root;  // empty: the API only (/ answers 404 with a hint)
  ApiConfig api;
  int threads = 32;
  bool access_log = false;  // one line per request on stderr
};

class DashboardServer {
 public:
  // Opens the store read-only and checks the web root; throws std::runtime_error naming what is wrong.
  explicit DashboardServer(ServeConfig config);
  ~DashboardServer();
  DashboardServer(const DashboardServer&) = delete;
  DashboardServer& operator=(const DashboardServer&) = delete;

  // Binds; port 0 picks a free port. Returns the port; throws when the address cannot be bound.
  int bind(const std::string& host, int port);
  void run();   // serves until stop(); call after bind()
  void stop();  // from any thread (signal handler thread, tests)
  bool running() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// 127.0.0.0/8, ::1 and "localhost": addresses only this machine can reach.
bool is_loopback_host(const std::string& host);

}  // namespace aisp::serve
