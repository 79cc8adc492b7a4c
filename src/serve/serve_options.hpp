// `aisp serve` options. Header-only on purpose: the `aisp` binary parses them (so `aisp serve --help`
// and bad values behave like every other subcommand) and then starts the `aisp-serve` executable with
// the same options; `aisp` itself must not link cpp-httplib (see dashboard_server.hpp for why).
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace aisp {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback: the dashboard has no authentication
  int port = 8100;                 // the seed's dashboard port
  std::string data;                // the store; default $AISP_DB, else artifacts/aisp.db
  std::string artifacts_dir;       // runs/*/progress and hw/ are read here; default: the store's directory
  std::string bench_root;          // a tree of chapters/labs: its targets are listed even before they ran
  std::string web_root;            // the UI's files; default: web/ beside the aisp-serve executable
  int threads = 128;               // connections served at once (each keep-alive or slow client holds a thread)
  int max_client_connections = 64; // ... from one client address (wrk -c64 on loopback still fits)
  std::vector<std::string> allow_hosts;  // extra names accepted in the Host header
  bool access_log = false;
};

inline void add_serve_options(CLI::App& app, ServeOptions& o) {
  app.add_option("--host", o.host, "Address to bind (default 127.0.0.1; anything else exposes the store unauthenticated)")
      ->capture_default_str();
  app.add_option("--port", o.port, "TCP port (0 = any free port, printed at start)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  app.add_option("--data,--db", o.data,
                 "Results store, opened read-only (default $AISP_DB, else artifacts/aisp.db, else the shipped "
                 "reference runs of results/reference, labelled as such)");
  app.add_option("--artifacts-dir", o.artifacts_dir,
                 "Artifacts directory for runs in progress and hw/ capabilities (default: the store's directory)");
  app.add_option("--bench-root", o.bench_root, "Benchmark tree whose targets are listed even when never run");
  app.add_option("--web-root", o.web_root, "Directory of the web UI (default: web/ next to aisp-serve)");
  app.add_option("--threads", o.threads, "Connections served at once, in total (one thread each)")
      ->check(CLI::Range(2, 1024))
      ->capture_default_str();
  app.add_option("--max-client-connections", o.max_client_connections,
                 "Connections served at once from one client address (more are refused with 503)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--allow-host", o.allow_hosts,
                 "A host name browsers may use to reach this server besides loopback names and --host "
                 "(repeatable; the Host header is checked against DNS rebinding)");
  app.add_flag("--access-log", o.access_log, "Print one line per request to stderr");
}

// The options as command-line arguments, for handing them to aisp-serve.
inline std::vector<std::string> serve_arguments(const ServeOptions& o) {
  std::vector<std::string> a = {"--host", o.host, "--port", std::to_string(o.port), "--threads", std::to_string(o.threads),
                                "--max-client-connections", std::to_string(o.max_client_connections)};
  for (auto& h : o.allow_hosts) a.insert(a.end(), {"--allow-host", h});
  auto add = [&](const char* flag, const std::string& v) {
    if (!v.empty()) a.insert(a.end(), {flag, v});
  };
  add("--data", o.data);
  add("--artifacts-dir", o.artifacts_dir);
  add("--bench-root", o.bench_root);
  add("--web-root", o.web_root);
  if (o.access_log) a.push_back("--access-log");
  return a;
}

}  // namespace aisp
