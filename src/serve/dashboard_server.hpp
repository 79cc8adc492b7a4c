// `aisp serve`: the dashboard's HTTP server (cpp-httplib) — the REST API under /api and the web UI.
//
// Why a separate executable (aisp-serve) that `aisp serve` starts: Debian packages cpp-httplib only as a
// shared library (libcpp-httplib.so.0.11), which the GPU machines do not have. Linking it into `aisp` would
// stop the whole binary from starting there (DESIGN §3: `aisp` must run on the GPU machine), so only
// aisp-serve depends on it.
//
// Robustness rules (tested in tests/unit/test_serve_*.cpp; docs/dashboard.md "Limits and hostile input"):
//  - the store is opened read-only; nothing a request does can write to it;
//  - every API answer is the envelope {"status": "ok"|"error", "result", "error"}; a bad parameter is a
//    400, an unknown id a 404, a handler failure a 500 with its message, never a dropped connection;
//  - requests are routed without regular expressions (a long path cannot blow the regex engine's stack);
//  - only GET and HEAD are served (405 otherwise, TRACE and CONNECT included) and request bodies are
//    capped, since nothing accepts one;
//  - the Host header must name this server: loopback names unless --host / --allow-host say otherwise
//    (a web page on another origin cannot read the API through a DNS-rebinding name);
//  - byte ranges are ignored, and a request with several is refused (416): 2,600 ranges on one JSON
//    answer made httplib build a 527 MB multipart reply;
//  - connections are capped in total and per client address, a request head must arrive whole within
//    3 s of its first byte and is capped in bytes and header lines (guarded_server.hpp).
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "serve/api.hpp"

namespace aisp::serve {

struct ServeConfig {
  std::filesystem::path db;
  std::filesystem::path web_root;  // empty: the API only (/ answers 404 with a hint)
  ApiConfig api;
  int threads = 128;                // connections served at once (each holds a thread)
  int max_client_connections = 0;   // ... from one client address; 0: `threads`
  double head_seconds = 3;          // a request head must be complete this long after its first byte
  std::vector<std::string> allowed_hosts;  // Host names accepted besides loopback ones and the bound address
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
  // Host names accepted in the Host header (set by bind(): the bound address, and every address and the
  // name of this machine when bound to all interfaces, plus ServeConfig::allowed_hosts).
  const std::vector<std::string>& allowed_hosts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// 127.0.0.0/8, ::1 and "localhost": addresses only this machine can reach.
bool is_loopback_host(const std::string& host);

// The host name of a Host header ("[::1]:8100" → "::1", "Example.COM.:80" → "example.com").
std::string host_of_header(const std::string& host_header);

// Whether a Host header names this server: a loopback name or address (localhost, *.localhost,
// 127.0.0.0/8, ::1), or one of `allowed` (lower case). An absent header (HTTP/1.0) is accepted: only
// browsers can be steered by DNS rebinding, and they always send one.
bool host_header_allowed(const std::string& host_header, const std::vector<std::string>& allowed);

}  // namespace aisp::serve
