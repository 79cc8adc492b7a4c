// A dashboard server for tests: a store built from the committed H100 reference runs
// (results/reference/h100_80gb_hbm3, four real runs: one A/A calibration, three benchmark runs), an
// artifacts directory with a run in progress and a finished one, a measured-capabilities file, and the
// server itself on a free loopback port in a background thread.
#pragma once
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/json_io.hpp"
#include "serve/dashboard_server.hpp"
#include "serve/gpu_live.hpp"
#include "store/store.hpp"

namespace aisp::serve::testing {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline const fs::path kSourceDir = AISP_SOURCE_DIR;
inline const fs::path kReferenceDir = kSourceDir / "results" / "reference" / "h100_80gb_hbm3";

// The four runs of 2026-11-22 (ch07 + ch01, a calibration among them): the counts and figures these
// tests assert were written against them; later reference runs must not change what the tests mean.
inline std::vector<fs::path> reference_runs() {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(kReferenceDir))
    if (e.is_directory() && e.path().filename().string().rfind("20261122_", 0) == 0) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aisp_serve_XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

class TestServer {
 public:
  // `web_root` empty: the built UI (<build>/web). `threads`: connection threads.
  // `tweak`: changes to the configuration before the server starts (limits, allowed hosts).
  explicit TestServer(const fs::path& web_root = AISP_WEB_DIR, int threads = 16,
                      const std::function<void(ServeConfig&)>& tweak = {}) {
    std::signal(SIGPIPE, SIG_IGN);  // as aisp-serve does: a client hanging up must not kill the process
    db = dir.path / "artifacts" / "aisp.db";
    {
      Store store = Store::open(db);
      for (auto& run : reference_runs()) store.ingest_run(run);
    }
    artifacts = dir.path / "artifacts";
    write_json_atomic(artifacts / "runs" / "20990101_000000__bench__live" / "progress" / "run_progress.json",
                      {{"state", "running"}, {"target", "ch07:transpose"}, {"completed", 1}, {"total", 4}});
    write_json_atomic(artifacts / "runs" / "20980101_000000__bench__done" / "progress" / "run_progress.json",
                      {{"state", "finished"}, {"completed", 4}, {"total", 4}, {"exit_code", 0}});
    caps_file = artifacts / "hw" / "hardware_capabilities_h100_80gb_hbm3.json";
    write_json_atomic(caps_file, {{"schema", "aisp.hardware_capabilities/1"},
                                  {"hardware_key", "h100_80gb_hbm3"},
                                  {"ceilings", {{"hbm_gbs", {{"value", 3000.0}, {"unit", "GB/s"}}},
                                                {"tflops_fp32", {{"value", 60.0}, {"unit", "TFLOP/s"}}}}}});
    ServeConfig c;
    c.db = db;
    c.web_root = web_root;
    c.threads = threads;
    c.api.artifacts_dir = artifacts;
    c.api.data_dir = kSourceDir / "data";
    c.api.caps_dirs = {artifacts / "hw"};
    // A bench root with one pair that was never run, and one whose target is stored.
    bench_root = dir.path / "bench";
    for (auto name : {"ch99/baseline_never.cu", "ch99/optimized_never.cu", "ch07/baseline_transpose.cu",
                      "ch07/optimized_transpose.cu"})
      write_file_atomic(bench_root / name, "// empty: only discovered, never compiled\n");
    c.api.bench_root = bench_root;
    c.api.gpu_status = live_gpu_status;
    if (tweak) tweak(c);
    server = std::make_unique<DashboardServer>(c);
    port = server->bind("127.0.0.1", 0);
    thread = std::thread([this] { server->run(); });
    for (int i = 0; i < 500 && !server->running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~TestServer() {
    server->stop();
    thread.join();
  }

  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port);
    c.set_connection_timeout(5);
    c.set_read_timeout(30);
    return c;
  }

  // GET; checks the envelope's shape and returns {status code, parsed body}.
  std::pair<int, json> get(const std::string& path) const {
    auto res = client().Get(path.c_str());
    if (!res) {
      ADD_FAILURE() << "GET " << path << ": " << httplib::to_string(res.error());
      return {0, nullptr};
    }
    json body = json::parse(res->body, nullptr, false);
    EXPECT_FALSE(body.is_discarded()) << path << ": not JSON: " << res->body.substr(0, 200);
    if (body.is_object()) {
      EXPECT_TRUE(body.contains("status") && body.contains("result") && body.contains("error")) << path;
      EXPECT_EQ(body["status"] == "ok", res->status == 200) << path << " " << res->body.substr(0, 300);
    }
    return {res->status, body};
  }
  json ok(const std::string& path) const {
    auto [status, body] = get(path);
    EXPECT_EQ(status, 200) << path << ": " << body.dump().substr(0, 400);
    return status == 200 ? body["result"] : json(nullptr);
  }
  // The error message of a request that must fail with `status`.
  std::string fails(const std::string& path, int status) const {
    auto [code, body] = get(path);
    EXPECT_EQ(code, status) << path << ": " << body.dump().substr(0, 400);
    return body.is_object() && body["error"].is_string() ? body["error"].get<std::string>() : "";
  }

  TempDir dir;
  fs::path db, artifacts, caps_file, bench_root;
  std::unique_ptr<DashboardServer> server;
  int port = 0;
  std::thread thread;
};

}  // namespace aisp::serve::testing
