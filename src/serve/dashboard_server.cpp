#include "serve/dashboard_server.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <mutex>
#include <limits>
#include <set>
#include <unordered_map>

#include "core/json_io.hpp"
#include "serve/guarded_server.hpp"
#include "serve/static_files.hpp"

namespace aisp::serve {
namespace fs = std::filesystem;

namespace {

// Nothing the API accepts has a body; a small cap makes a client streaming megabytes get a 413 at once.
constexpr size_t kMaxBodyBytes = 64 * 1024;
// The listen backlog: httplib compiles in 5; 64 clients connecting at once would wait out SYN retries.
constexpr int kListenBacklog = 512;

// Set (per request thread) by the setup hook when the request asked for several byte ranges.
thread_local bool tl_multi_range = false;

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

std::string host_of_header(const std::string& header) {
  std::string h = header;
  if (!h.empty() && h[0] == '[') {
    size_t close = h.find(']');
    h = close == std::string::npos ? h.substr(1) : h.substr(1, close - 1);
  } else if (size_t colon = h.find(':'); colon != std::string::npos && h.find(':', colon + 1) == std::string::npos) {
    h = h.substr(0, colon);  // one ':' is a port; more would be a bare IPv6 address (invalid in Host)
  }
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!h.empty() && h.back() == '.') h.pop_back();
  return h;
}

bool host_header_allowed(const std::string& header, const std::vector<std::string>& allowed) {
  if (header.empty()) return true;
  std::string h = host_of_header(header);
  if (h == "localhost" || ends_with(h, ".localhost") || is_loopback_host(h)) return true;
  return std::find(allowed.begin(), allowed.end(), h) != allowed.end();
}

namespace {

bool is_wildcard(const std::string& host) { return host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]"; }

// Every address of this machine's interfaces and its host name: the names a client on the network may
// legitimately use when the server listens on all interfaces.
std::vector<std::string> names_of_this_machine() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* i = list; i; i = i->ifa_next) {
      if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6)) continue;
      char buf[NI_MAXHOST];
      socklen_t len = i->ifa_addr->sa_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
      if (getnameinfo(i->ifa_addr, len, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST) == 0) {
        std::string a = buf;
        if (size_t pct = a.find('%'); pct != std::string::npos) a = a.substr(0, pct);  // fe80::1%eth0
        out.push_back(a);
      }
    }
    freeifaddrs(list);
  }
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) == 0 && name[0]) out.push_back(host_of_header(name));
  return out;
}

}  // namespace

struct DashboardServer::Impl {
  ServeConfig config;
  StoreView store;
  Api api;
  std::optional<StaticFiles> files;
  GuardedServer http;
  std::vector<std::string> allowed_hosts;
  std::mutex log_mutex;
  std::atomic<bool> run_entered{false}, stop_requested{false};

  static ConnectionLimits limits_of(const ServeConfig& c) {
    ConnectionLimits l;
    l.max_connections = std::max(2, c.threads);
    l.max_client_connections = c.max_client_connections > 0 ? c.max_client_connections : l.max_connections;
    l.head_seconds = c.head_seconds;
    l.first_byte_seconds = c.head_seconds;
    return l;
  }

  explicit Impl(ServeConfig c)
      : config(std::move(c)), store(config.db), api(store, config.api), http(limits_of(config)) {
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
      return {{"ok", true}, {"store", store.path().string()}, {"version", AISP_VERSION},
              {"dataset", api.dataset_json()}};
    }
    throw not_found("unknown endpoint " + path + " (GET /api lists them)");
  }

  // Whole answers, serialized, per store version: a stored run never changes, so until the store does
  // (a new run ingested, the file replaced) the same request has the same answer, and serving it is a
  // lookup and a copy. Answers that also read files or the clock carry a maximum age.
  struct CachedAnswer {
    std::string version;
    std::chrono::steady_clock::time_point at;
    std::shared_ptr<const std::string> body;
  };
  std::mutex answers_mutex;
  std::unordered_map<std::string, CachedAnswer> answers;
  size_t answer_bytes = 0;
  static constexpr size_t kMaxAnswerBytes = 64u << 20, kMaxAnswers = 4096;

  // Seconds an answer may be reused (within one store version); negative: never cached.
  static double max_age(const std::string& path) {
    if (path == "/api/gpu" || path == "/api/progress" || path == "/api/health") return -1;  // live
    if (path == "/api/summary") return 2;                        // counts runs in progress (files)
    if (path == "/api/targets" || path == "/api/hw") return 10;  // --bench-root tree, capabilities files
    if (starts_with(path, "/api/analysis/") || path == "/api/roofline") return 30;  // capabilities, data files
    return std::numeric_limits<double>::infinity();             // the store alone
  }

  static std::string cache_key(const httplib::Request& req) {
    std::vector<std::pair<std::string, std::string>> params(req.params.begin(), req.params.end());
    std::sort(params.begin(), params.end());
    std::string key = req.path;
    for (auto& [k, v] : params) key += '\x1f' + k + '\x1e' + v;
    return key;
  }

  // One computation per missing answer: requests for the same answer wait for the first one's result
  // instead of all computing it (64 clients asking at once for a cold /api/benchmarks).
  std::mutex inflight_mutex;
  std::map<std::string, std::shared_ptr<std::mutex>> inflight;

  bool answer_from_cache(const std::string& key, const std::string& version, double age, httplib::Response& res) {
    std::lock_guard lock(answers_mutex);
    auto it = answers.find(key);
    if (it == answers.end() || it->second.version != version ||
        std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.at).count() >= age)
      return false;
    res.set_content(*it->second.body, "application/json");
    res.status = 200;
    return true;
  }

  void serve_api(const httplib::Request& req, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    double age = max_age(req.path);
    std::string key, version;
    std::shared_ptr<std::mutex> computing;
    std::unique_lock<std::mutex> computing_lock;
    if (age >= 0) {
      key = cache_key(req);
      version = store.version();
      if (answer_from_cache(key, version, age, res)) return;
      {
        std::lock_guard lock(inflight_mutex);
        auto& m = inflight[key];
        if (!m) m = std::make_shared<std::mutex>();
        computing = m;
      }
      computing_lock = std::unique_lock(*computing);
    }
    // The in-flight entry goes when its last user is done, so distinct queries (?q=<anything>) cannot
    // grow the map.
    struct Done {
      Impl* self;
      const std::string* key;
      std::shared_ptr<std::mutex>* computing;
      std::unique_lock<std::mutex>* lock;
      ~Done() {
        if (!*computing) return;
        lock->unlock();
        std::lock_guard g(self->inflight_mutex);
        auto it = self->inflight.find(*key);
        computing->reset();
        if (it != self->inflight.end() && it->second.use_count() == 1) self->inflight.erase(it);
      }
    } done{this, &key, &computing, &computing_lock};
    if (computing && answer_from_cache(key, version, age, res)) return;  // computed while this one waited
    try {
      Query q(req.params);
      auto body = std::make_shared<const std::string>(envelope(route_api(req.path, q)));
      res.set_content(*body, "application/json");
      res.status = 200;
      if (age >= 0) {
        std::lock_guard lock(answers_mutex);
        if (answers.size() >= kMaxAnswers || answer_bytes + body->size() > kMaxAnswerBytes) {
          answers.clear();  // rare (thousands of distinct queries): start again rather than track recency
          answer_bytes = 0;
        }
        auto& slot = answers[key];
        if (slot.body) answer_bytes -= slot.body->size();
        slot = {version, std::chrono::steady_clock::now(), body};
        answer_bytes += body->size();
      }
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
    log(req, res, t0);
  }

  void log(const httplib::Request& req, const httplib::Response& res, std::chrono::steady_clock::time_point t0) {
    if (!config.access_log) return;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard lock(log_mutex);
    std::fprintf(stderr, "%s %s %s %d %.2f ms\n", req.remote_addr.c_str(), req.method.c_str(), req.path.c_str(),
                 res.status, ms);
  }

  void configure() {
    http.set_payload_max_length(kMaxBodyBytes);
    // httplib writes headers and body in separate sends; with Nagle on, the body waits for the client's
    // delayed ACK (40 ms on Linux): measured 46 ms per request and 340 requests/s on loopback without this.
    http.set_tcp_nodelay(true);
    // Byte ranges: a JSON answer or a small UI file is never worth a partial reply, and httplib builds a
    // multipart answer for any number of ranges in memory (2,600 ranges: 527 MB). Ranges are dropped
    // here, before routing; a request with several is refused below.
    http.on_request = [](httplib::Request& req) {
      tl_multi_range = req.ranges.size() > 1;
      req.ranges.clear();
    };
    // GET and HEAD (every real request) are routed here, before httplib's regex routing.
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 reaches this port with
      // "Host: evil.example"; only names of this server are answered.
      if (!host_header_allowed(req.get_header_value("Host"), allowed_hosts)) {
        res.status = 403;
        res.set_content(error_envelope("Host '" + req.get_header_value("Host") +
                                       "' is not a name of this server: only loopback names are accepted unless "
                                       "--host or --allow-host name it (DNS rebinding protection)"),
                        "application/json");
        log(req, res, std::chrono::steady_clock::now());
        return httplib::Server::HandlerResponse::Handled;
      }
      if (tl_multi_range) {
        res.status = 416;
        res.set_content(error_envelope("several byte ranges in one request are not served; ask for the whole answer"),
                        "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      static const std::set<std::string> with_body = {"POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
      if (req.method != "GET" && req.method != "HEAD") {
        if (with_body.count(req.method)) return httplib::Server::HandlerResponse::Unhandled;
        // TRACE, CONNECT and the rest: 405 as for every other method. httplib has no route for them (it
        // would answer 400) and never reads their body, so the connection is closed after the answer.
        GuardedServer::close_after_response();
        res.set_header("Connection", "close");
        dispatch(req, res);
        return httplib::Server::HandlerResponse::Handled;
      }
      if (has_body(req)) {
        // httplib 0.11 never reads a GET/HEAD body, so its bytes would be parsed as the next request on
        // this connection. Refuse, and close the connection after the answer.
        res.status = 400;
        res.set_header("Connection", "close");
        GuardedServer::close_after_response();
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
  impl_->http.widen_backlog(kListenBacklog);
  auto& allowed = impl_->allowed_hosts;
  allowed.clear();
  for (auto& h : impl_->config.allowed_hosts) allowed.push_back(host_of_header(h));
  if (is_wildcard(host)) {
    for (auto& n : names_of_this_machine()) allowed.push_back(n);
  } else if (!is_loopback_host(host)) {
    allowed.push_back(host_of_header(host.find(':') != std::string::npos && host[0] != '[' ? "[" + host + "]" : host));
  }
  return bound;
}

const std::vector<std::string>& DashboardServer::allowed_hosts() const { return impl_->allowed_hosts; }

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
