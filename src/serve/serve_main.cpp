// aisp-serve: the dashboard server. Normally started by `aisp serve` (which parses the same options);
// it is a separate executable only so that `aisp` does not depend on libcpp-httplib (dashboard_server.hpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "serve/dashboard_server.hpp"
#include "serve/gpu_live.hpp"
#include "serve/reference_dataset.hpp"
#include "serve/serve_options.hpp"

namespace fs = std::filesystem;
using namespace aisp;

namespace {

fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

// gpu_prices.json and technique_tags.json: $AISP_DATA_DIR, else ./data, else the checkout this was built from.
fs::path data_dir() {
  if (const char* env = std::getenv("AISP_DATA_DIR")) return env;
  if (fs::is_regular_file("data/gpu_prices.json")) return "data";
  return fs::path(AISP_PROJECT_SOURCE_DIR) / "data";
}

}  // namespace

int main(int argc, char** argv) {
  ServeOptions o;
  CLI::App app{"aisp-serve: the aisp dashboard (REST API under /api, web UI at /); usually run as `aisp serve`"};
  add_serve_options(app, o);
  CLI11_PARSE(app, argc, argv);

  serve::ServeConfig c;
  c.db = !o.data.empty() ? fs::path(o.data) : std::getenv("AISP_DB") ? fs::path(std::getenv("AISP_DB")) : fs::path("artifacts/aisp.db");
  // No store at the default place (a fresh clone, no run yet): the shipped reference runs, read-only and
  // labelled as such, rather than an error. A store named explicitly (--data, $AISP_DB) must exist.
  std::string dataset_label;
  if (o.data.empty() && !std::getenv("AISP_DB") && !fs::exists(c.db)) {
    try {
      auto ref = reference::open({fs::path("results") / "reference", fs::path(AISP_PROJECT_SOURCE_DIR) / "results" / "reference"});
      std::cerr << fmt::format("aisp serve: no results store at {}: serving the {}\n", c.db.string(), ref.label());
      c.db = ref.store;
      dataset_label = ref.label();
    } catch (const std::exception& e) {
      std::cerr << fmt::format("aisp serve: no results store at {} and {}\n", c.db.string(), e.what());
      return 2;
    }
  }
  // Runs in progress and hw/ are looked for beside the store, or in ./artifacts for the reference dataset.
  fs::path artifacts = !o.artifacts_dir.empty()    ? fs::path(o.artifacts_dir)
                       : !dataset_label.empty()    ? fs::path("artifacts")
                       : c.db.has_parent_path()    ? c.db.parent_path()
                                                   : fs::path(".");
  c.web_root = !o.web_root.empty() ? fs::path(o.web_root) : self_dir() / "web";
  c.threads = o.threads;
  c.max_client_connections = o.max_client_connections;
  c.allowed_hosts = o.allow_hosts;
  c.access_log = o.access_log;
  c.api.artifacts_dir = artifacts;
  c.api.bench_root = o.bench_root;
  c.api.data_dir = data_dir();
  c.api.caps_dirs = {artifacts / "hw", fs::path("artifacts") / "hw", fs::path(AISP_PROJECT_SOURCE_DIR) / "artifacts" / "hw"};
  // The measured ceilings shipped with the reference runs (results/reference/<gpu>/hardware_capabilities_
  // <hwkey>.json): found after the user's own, so a GPU measured here wins over the shipped file.
  for (const fs::path& root : {fs::path("results") / "reference", fs::path(AISP_PROJECT_SOURCE_DIR) / "results" / "reference"}) {
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (auto& e : fs::directory_iterator(root, ec))
      if (e.is_directory(ec)) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    c.api.caps_dirs.insert(c.api.caps_dirs.end(), dirs.begin(), dirs.end());
  }
  c.api.gpu_status = serve::live_gpu_status;
  c.api.dataset_label = dataset_label;

  // Signals are taken by one thread with sigwait, so SIGINT/SIGTERM stop the server cleanly (in-flight
  // requests finish) instead of killing it mid-response. Blocked before any server thread exists.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a client closing early must not kill the server

  try {
    serve::DashboardServer server(c);
    int port = server.bind(o.host, o.port);
    std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
    std::cerr << fmt::format("aisp serve: http://{}:{}/  (store {} opened read-only; UI {}; Ctrl-C stops)\n", host, port,
                             c.db.string(), c.web_root.string());
    if (!serve::is_loopback_host(o.host))
      std::cerr << fmt::format(
          "WARNING: listening on {}, not loopback: anyone who can reach this machine on port {} can read every stored "
          "result and the run manifests (host names, paths, git commits). There is no authentication and no TLS. "
          "Use --host 127.0.0.1 and an SSH tunnel unless this network is trusted.\n",
          o.host, port);
    std::thread waiter([&] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      std::cerr << fmt::format("aisp serve: {} received, stopping\n", sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
      server.stop();
    });
    server.run();
    // run() also returns if the listener fails; wake the waiter so the process can exit.
    pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
  } catch (const std::exception& e) {
    std::cerr << "aisp serve: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
