#include "serve/dashboard_server.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include <arpa/inet.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <mutex>

#include "core/json_io.hpp"
#include "serve/static_files.hpp"

namespace aisp::serve {
namespace fs = std::filesystem;

namespace {

// Nothing the API accepts has a body; a small cap makes a client streaming megabytes get a 413 at once.
constexpr size_t kMaxBodyBytes = 64 * 1024;
// A client silent this long while sending a request is disconnected (a request arrives in one burst;
// 5 s is generous), and an idle keep-alive connection after 2 s: each open connection holds a thread, so
// these two bound how long a stalled client can keep one (about 7 s: httplib answers 400 to a timed-out
// request, then waits the keep-alive time before closing).
constexpr time_t kReadTimeoutSeconds = 5;
constexpr time_t kKeepAliveSeconds = 2;
constexpr time_t kWriteTimeoutSeconds = 5;
// Requests per keep-alive connection before the server closes it (httplib's default of 5 makes a
// polling browser or a load generator reconnect constantly).
constexpr size_t kKeepAliveMaxRequests = 1000;

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

std::string envelope(const json& result) {
  json e = {{"status", "ok"}, {"result", result}, {"error", nullptr}};
  // Labels, paths and check details come from files on disk: invalid UTF-8 is replaced, never a throw.
  return e.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string error_envelope(const std::string& message) {
  json e = {{"status", "error"}, {"result", nullptr}, {"error", message}};
  return e.dump(-1, ' ', false, json::error_handler_t::replace);
}

const char* reason_phrase(int status) {
  switch (status) {
    case 400: return "bad request (malformed request line or headers)";
    case 404: return "not found";
    case 413: return "request body too large (the dashboard accepts none)";
    case 414: return "request URI too long";
    case 416: return "range not satisfiable";
    case 431: return "request header fields too large";
    default: return "error";
  }
}

bool has_body(const httplib::Request& req) {
  return (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0") ||
         req.has_header("Transfer-Encoding");
}

// The endpoint list served at /api: the API describes itself.
json endpoint_index() {
  return {{"endpoints",
           {"/api/summary", "/api/benchmarks?hardware=&chapter=&status=&badge=&q=&limit=&offset=",
            "/api/runs?hardware=&mode=&label=&complete=&calibration=&order=&limit=&offset=", "/api/runs/{id|key|latest}",
            "/api/targets?hardware=", "/api/targets/{target}/history?hardware=&mode=", "/api/targets/{target}/result?run=",
            "/api/compare?baseline=&candidate=&target=&change=", "/api/hw", "/api/gpu", "/api/progress", "/api/roofline?run=",
            "/api/analysis/{leaderboards,pareto,tradeoffs,recommendations,whatif,stacking,power,cost,scaling}?run=",
            "/api/health"}},
          {"envelope", "{status: ok|error, result, error}; 400 bad parameter, 404 unknown id or endpoint"}};
}

}  // namespace

bool is_loopback_host(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  in_addr a{};
  if (inet_pton(AF_INET, host.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
  return false;
}

struct DashboardServer::Impl {
  ServeConfig config;
  StoreView store;
  Api api;
  std::optional<StaticFiles> files;
  httplib::Server http;
  std::mutex log_mutex;
  std::atomic<bool> run_entered{false}, stop_requested{false};

  explicit Impl(ServeConfig c)
      : config(std::move(c)), store(config.db), api(store, config.api) {
    if (!config.web_root.empty()) files.emplace(config.web_root);
  }

  json route_api(const std::string& path, const Query& q) {
    std::string rest = path == "/api" ? "" : path.substr(5);  // after "/api/"
    if (rest.empty()) {
      q.only({});
      return endpoint_index();
    }
    if (rest == "summary") return api.summary(q);
    if (rest == "benchmarks") return api.benchmarks(q);
    if (rest == "runs") return api.runs(q);
    if (starts_with(rest, "runs/")) {
      std::string spec = rest.substr(5);
      if (spec.empty() || spec.find('/') != std::string::npos) throw not_found("unknown endpoint " + path);
      return api.run(spec, q);
    }
    if (rest == "targets") return api.targets(q);
    // Target ids contain ':' and, for labs, '/' ("labs/x:y"), so the id is everything between the prefix
    // and the last segment.
    if (starts_with(rest, "targets/")) {
      std::string id = rest.substr(8);
      if (ends_with(id, "/history") && id.size() > 8) return api.target_history(id.substr(0, id.size() - 8), q);
      if (ends_with(id, "/result") && id.size() > 7) return api.target_result(id.substr(0, id.size() - 7), q);
      throw not_found("unknown endpoint " + path + " (targets/{id}/history or targets/{id}/result)");
    }
    if (rest == "compare") return api.compare(q);
    if (rest == "hw") return api.hardware(q);
    if (rest == "gpu") return api.gpu(q);
    if (rest == "progress") return api.progress(q);
    if (rest == "roofline") return api.roofline(q);
    if (starts_with(rest, "analysis/")) {
      std::string kind = rest.substr(9);
      if (kind.find('/') != std::string::npos) throw not_found("unknown endpoint " + path);
      return api.analysis(kind, q);
    }
    if (rest == "health") {
      q.only({});
      return {{"ok", true}, {"store", store.path().string()}, {"version", AISP_VERSION}};
    }
    throw not_found("unknown endpoint " + path + " (GET /api lists them)");
  }

  void serve_api(const httplib::Request& req, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    try {
      Query q(req.params);
      res.set_content(envelope(route_api(req.path, q)), "application/json");
      res.status = 200;
    } catch (const ApiError& e) {
      res.status = e.http_status;
      res.set_content(error_envelope(e.what()), "application/json");
    } catch (const std::exception& e) {
      res.status = 500;
      res.set_content(error_envelope(std::string("internal error: ") + e.what()), "application/json");
    }
  }

  void serve_file(const httplib::Request& req, httplib::Response& res) {
    std::optional<fs::path> file = files ? files->resolve(req.path) : std::nullopt;
    if (!file) {
      res.status = 404;
      res.set_content(files ? "not found\n" : "this server has no web UI directory (--web-root); the API is under /api\n",
                      "text/plain; charset=utf-8");
      return;
    }
    try {
      res.set_content(read_file(*file), content_type_for(*file).c_str());
    } catch (const std::exception&) {
      res.status = 404;  // removed between resolve() and the read
      res.set_content("not found\n", "text/plain; charset=utf-8");
      return;
    }
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    // The UI loads only its own files and talks only to this server.
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
  }

  void dispatch(const httplib::Request& req, httplib::Response& res) {
    auto t0 = std::chrono::steady_clock::now();
    res.set_header("X-Content-Type-Options", "nosniff");
    bool is_api = req.path == "/api" || starts_with(req.path, "/api/");
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content(is_api ? error_envelope("method " + req.method + " not allowed: the dashboard is read-only")
                             : "method not allowed\n",
                      is_api ? "application/json" : "text/plain; charset=utf-8");
    } else if (is_api) {
      serve_api(req, res);
    } else {
      serve_file(req, res);
    }
    if (config.access_log) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard lock(log_mutex);
      std::fprintf(stderr, "%s %s %s %d %.2f ms\n", req.remote_addr.c_str(), req.method.c_str(), req.path.c_str(),
                   res.status, ms);
    }
  }

  void configure() {
    int threads = config.threads;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
    http.set_read_timeout(kReadTimeoutSeconds, 0);
    http.set_write_timeout(kWriteTimeoutSeconds, 0);
    http.set_keep_alive_timeout(kKeepAliveSeconds);
    http.set_keep_alive_max_count(kKeepAliveMaxRequests);
    http.set_payload_max_length(kMaxBodyBytes);
    // httplib writes headers and body in separate sends; with Nagle on, the body waits for the client's
    // delayed ACK (40 ms on Linux): measured 46 ms per request and 340 requests/s on loopback without this.
    http.set_tcp_nodelay(true);
    // GET and HEAD (every real request) are routed here, before httplib's regex routing.
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (req.method != "GET" && req.method != "HEAD") return httplib::Server::HandlerResponse::Unhandled;
      if (has_body(req)) {
        // httplib 0.11 never reads a GET/HEAD body, so its bytes would be parsed as the next request on
        // this connection. Refuse, and ask the client to close (the server cannot close it from here).
        res.status = 400;
        res.set_header("Connection", "close");
        res.set_content(error_envelope("a GET or HEAD request must not carry a body"), "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      dispatch(req, res);
      return httplib::Server::HandlerResponse::Handled;
    });
    // Other methods go through httplib's routing, which reads (and caps) their body before the 405, so the
    // body is never mistaken for the next request on a keep-alive connection.
    auto fallback = [this](const httplib::Request& req, httplib::Response& res) { dispatch(req, res); };
    http.Post(".*", fallback);
    http.Put(".*", fallback);
    http.Patch(".*", fallback);
    http.Delete(".*", fallback);
    http.Options(".*", fallback);
    // httplib's own refusals (400 malformed request, 413 body too large, 414 URI too long) get a short
    // body saying so; our handlers' answers already have one and pass through untouched.
    http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
      res.set_content(error_envelope(fmt::format("HTTP {}: {}", res.status, reason_phrase(res.status))), "application/json");
      return httplib::Server::HandlerResponse::Handled;
    }));
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown exception";
      try {
        if (ep) std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      res.status = 500;
      res.set_content(error_envelope("internal error: " + what), "application/json");
    });
  }
};

DashboardServer::DashboardServer(ServeConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {
  impl_->configure();
}

DashboardServer::~DashboardServer() {
  stop();
}

int DashboardServer::bind(const std::string& host, int port) {
  int bound = port == 0 ? impl_->http.bind_to_any_port(host) : (impl_->http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0)
    throw std::runtime_error(fmt::format("cannot listen on {}:{} (address in use, or not an address of this machine)",
                                         host, port));
  return bound;
}

void DashboardServer::run() {
  impl_->run_entered = true;
  if (!impl_->stop_requested) impl_->http.listen_after_bind();
  impl_->run_entered = false;
}

// httplib's stop() does nothing unless the accept loop is already running, so a stop that lands between
// bind() and run() (a signal right at start-up) would be lost and the server would run on. Hence the
// flags: a stop before run() makes run() return at once; one while run() is starting waits for the loop.
void DashboardServer::stop() {
  if (!impl_) return;
  impl_->stop_requested = true;
  for (int i = 0; i < 1000 && impl_->run_entered && !impl_->http.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  impl_->http.stop();
}

bool DashboardServer::running() const { return impl_->http.is_running(); }

}  // namespace aisp::serve
