// The REST API over HTTP (httplib::Client against a server on a free loopback port) with a store of the
// committed H100 reference runs. Expected values are computed independently: from the reference results
// files, from the Store's own queries and from the analysis engine called directly, never typed in.
#include <cmath>
#include <future>
#include <set>

#include "analysis/analysis.hpp"
#include "core/result.hpp"
#include "core/stats.hpp"
#include "serve_test_server.hpp"

namespace aisp::serve::testing {
namespace {

class ServeApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new TestServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static TestServer* server_;
  const TestServer& s() const { return *server_; }
};
TestServer* ServeApi::server_ = nullptr;

// The newest benchmark (non-calibration) reference run, read straight from its results file.
std::vector<TargetResult> latest_reference_targets() {
  auto runs = reference_runs();
  return targets_from_document(read_json(runs.back() / "results" / "benchmark_test_results.json"));
}

TEST_F(ServeApi, SummaryCountsWhatTheStoreHolds) {
  json r = s().ok("/api/summary");
  EXPECT_EQ(r["runs"], reference_runs().size());
  EXPECT_EQ(r["calibration_runs"], 1);
  auto targets = latest_reference_targets();
  EXPECT_EQ(r["targets"], targets.size());
  EXPECT_EQ(r["hardware_keys"], json::array({"h100_80gb_hbm3"}));
  EXPECT_EQ(r["latest_run"]["key"], reference_runs().back().filename().string());
  double log_sum = 0;
  int n = 0;
  for (auto& t : targets)
    if (t.status == "succeeded") log_sum += std::log(t.best_speedup), ++n;
  ASSERT_GT(n, 0);
  EXPECT_NEAR(r["geomean_best_speedup"].get<double>(), std::exp(log_sum / n), 1e-9);
  EXPECT_EQ(r["runs_in_progress"], 1);
}

TEST_F(ServeApi, BenchmarksAreEachTargetsNewestResult) {
  json r = s().ok("/api/benchmarks");
  auto targets = latest_reference_targets();
  ASSERT_EQ(r["total"], targets.size());
  for (auto& t : targets) {
    const json* found = nullptr;
    for (auto& b : r["benchmarks"])
      if (b["target"] == t.id) found = &b;
    ASSERT_NE(found, nullptr) << t.id;
    EXPECT_EQ((*found)["run"]["key"], reference_runs().back().filename().string()) << t.id;
    EXPECT_DOUBLE_EQ((*found)["best_speedup"].get<double>(), t.best_speedup) << t.id;
    EXPECT_EQ((*found)["status"], t.status);
    ASSERT_EQ((*found)["variants"].size(), t.optimizations.size());
    const VariantResult& best = t.optimizations.front();
    EXPECT_EQ((*found)["badge"], best.verdict);
    EXPECT_DOUBLE_EQ((*found)["variants"][0]["ci_low"].get<double>(), best.ci_low);
    EXPECT_DOUBLE_EQ((*found)["baseline"]["median_ms"].get<double>(), t.baseline.timing.median);
    EXPECT_FALSE((*found)["baseline"].contains("samples_ms")) << "the list view carries no raw samples";
  }
  EXPECT_EQ(s().ok("/api/benchmarks?chapter=ch07")["total"], 3);
  EXPECT_EQ(s().ok("/api/benchmarks?chapter=ch01&badge=FASTER")["total"], 1);
  EXPECT_EQ(s().ok("/api/benchmarks?hardware=h200")["total"], 0);
  EXPECT_EQ(s().ok("/api/benchmarks?limit=2&offset=3")["benchmarks"].size(), 1u);
}

TEST_F(ServeApi, BadParametersAre400sThatNameTheParameter) {
  EXPECT_NE(s().fails("/api/benchmarks?limt=5", 400).find("unknown parameter 'limt'"), std::string::npos);
  EXPECT_NE(s().fails("/api/benchmarks?limit=0", 400).find("'limit'"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs?limit=12abc", 400).find("integer"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs?offset=-1", 400).find("'offset'"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs?order=sideways", 400).find("desc, asc"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs?complete=maybe", 400).find("'complete'"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs?limit=1&limit=2", 400).find("more than once"), std::string::npos);
  EXPECT_NE(s().fails("/api/compare?baseline=latest", 400).find("candidate"), std::string::npos);
  EXPECT_NE(s().fails("/api/analysis/whatif?vram=lots", 400).find("'vram'"), std::string::npos);
  EXPECT_NE(s().fails("/api/analysis/whatif?latency=nan", 400).find("'latency'"), std::string::npos);
  // No price for a GPU is a state the answer describes (the UI shows it and asks for a rate), not an error.
  json no_price = s().ok("/api/analysis/cost?gpu=NoSuchGPU9000")["data"];
  EXPECT_EQ(no_price["priced"], false);
  EXPECT_EQ(no_price["gpu"], "NoSuchGPU9000");
  EXPECT_NE(no_price["message"].get<std::string>().find("no price for GPU 'NoSuchGPU9000'"), std::string::npos);
  EXPECT_EQ(s().ok("/api/analysis/cost?gpu=NoSuchGPU9000&rate=2")["data"]["priced"], true);
  EXPECT_NE(s().fails("/api/analysis/cost?rate=0", 400).find("rate"), std::string::npos);
  EXPECT_NE(s().fails("/api/targets/ch07:transpose/history?mode=warm", 400).find("'mode'"), std::string::npos);
  EXPECT_NE(s().fails("/api/summary?x=1", 400).find("accepted: none"), std::string::npos);
}

TEST_F(ServeApi, UnknownIdsAndEndpointsAre404s) {
  EXPECT_NE(s().fails("/api/runs/999999", 404).find("unknown run"), std::string::npos);
  EXPECT_NE(s().fails("/api/runs/nonsense_run", 404).find("nearest"), std::string::npos);
  EXPECT_NE(s().fails("/api/targets/ch07:transpos/history", 404).find("ch07:transpose"), std::string::npos);
  // A labs id carries a '/', sent percent-encoded; it must arrive whole.
  EXPECT_NE(s().fails("/api/targets/labs%2Fnone:x/result", 404).find("'labs/none:x'"), std::string::npos);
  EXPECT_NE(s().fails("/api/compare?baseline=latest&candidate=424242", 404).find("424242"), std::string::npos);
  EXPECT_NE(s().fails("/api/analysis/astrology", 404).find("leaderboards"), std::string::npos);
  EXPECT_NE(s().fails("/api/nope", 404).find("GET /api"), std::string::npos);
  EXPECT_NE(s().fails("/api/targets/ch07:transpose", 404).find("history"), std::string::npos);
  // A prefix shared by several runs is ambiguous: a request problem, not a missing run.
  EXPECT_NE(s().fails("/api/runs/20261122", 400).find("ambiguous"), std::string::npos);
}

TEST_F(ServeApi, RunsPageNewestFirstWithFilters) {
  auto refs = reference_runs();
  json all = s().ok("/api/runs");
  ASSERT_EQ(all["total"], refs.size());
  EXPECT_EQ(all["runs"][0]["key"], refs.back().filename().string());
  json page = s().ok("/api/runs?limit=2&offset=1");
  ASSERT_EQ(page["runs"].size(), 2u);
  EXPECT_EQ(page["runs"][0]["key"], refs[refs.size() - 2].filename().string());
  EXPECT_EQ(s().ok("/api/runs?order=asc")["runs"][0]["key"], refs.front().filename().string());
  json no_aa = s().ok("/api/runs?calibration=0");
  EXPECT_EQ(no_aa["total"], refs.size() - 1);
  for (auto& r : no_aa["runs"]) EXPECT_FALSE(r["calibration"].get<bool>());
  EXPECT_EQ(s().ok("/api/runs?hardware=h100_80gb_hbm3&mode=cold&complete=1")["total"], refs.size());
  EXPECT_EQ(s().ok("/api/runs?label=calibrate")["total"], 1);
}

TEST_F(ServeApi, OneRunByIdKeyPrefixOrLatest) {
  auto refs = reference_runs();
  json latest = s().ok("/api/runs/latest");
  EXPECT_EQ(latest["run"]["key"], refs.back().filename().string());
  EXPECT_EQ(latest["manifest"]["hardware"]["hardware_key"], "h100_80gb_hbm3");
  EXPECT_EQ(latest["targets"].size(), latest_reference_targets().size());
  std::string id = std::to_string(latest["run"]["id"].get<int64_t>());
  EXPECT_EQ(s().ok("/api/runs/" + id)["run"], latest["run"]);
  EXPECT_EQ(s().ok("/api/runs/" + refs.back().filename().string())["run"], latest["run"]);
  EXPECT_EQ(s().ok("/api/runs/" + refs.back().filename().string().substr(0, 15))["run"], latest["run"]);
}

TEST_F(ServeApi, HistoryMatchesTheStoreAndLeavesOutTheAARun) {
  Store store = Store::open(s().db, false);
  auto rows = store.history("ch07:transpose");
  size_t benchmark_rows = 0;
  for (auto& r : rows) benchmark_rows += r.run.key.find("calibrate") == std::string::npos;
  json h = s().ok("/api/targets/ch07:transpose/history");
  ASSERT_EQ(h["rows"].size(), benchmark_rows);
  EXPECT_EQ(h["hardware_keys"], json::array({"h100_80gb_hbm3"}));
  for (auto& r : h["rows"]) {
    EXPECT_FALSE(r["run"]["calibration"].get<bool>());
    EXPECT_GT(r["speedup"].get<double>(), 1.0);
    EXPECT_LE(r["ci_low"].get<double>(), r["speedup"].get<double>());
  }
  EXPECT_EQ(s().ok("/api/targets/ch07:transpose/history?mode=hot")["rows"].size(), 0u);
}

TEST_F(ServeApi, TargetResultCarriesEveryKeptSample) {
  auto targets = latest_reference_targets();
  for (auto& t : targets) {
    json r = s().ok("/api/targets/" + t.id + "/result");
    EXPECT_EQ(r["run"]["key"], reference_runs().back().filename().string());
    EXPECT_EQ(r["target"]["baseline"]["samples_ms"].size(), t.baseline.samples_ms.size()) << t.id;
    ASSERT_EQ(r["target"]["variants"].size(), t.optimizations.size());
    EXPECT_EQ(r["target"]["variants"][0]["samples_ms"].get<std::vector<double>>(), t.optimizations[0].samples_ms);
    EXPECT_EQ(r["target"]["variants"][0]["checks"].size(), t.optimizations[0].checks.size());
  }
  // An older run by prefix, and the calibration run when asked for explicitly.
  auto refs = reference_runs();
  json old = s().ok("/api/targets/ch07:transpose/result?run=" + refs[1].filename().string());
  EXPECT_EQ(old["run"]["key"], refs[1].filename().string());
}

TEST_F(ServeApi, CompareIsTheStoresComparison) {
  Store store = Store::open(s().db, false);
  RunInfo a = store.resolve_run("previous"), b = store.resolve_run("latest");
  auto expected = store.compare_runs(a.id, b.id);
  json r = s().ok("/api/compare?baseline=previous&candidate=latest");
  ASSERT_EQ(r["rows"].size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(r["rows"][i]["target"], expected[i].target);
    EXPECT_EQ(r["rows"][i]["variant"], expected[i].variant);
    EXPECT_EQ(r["rows"][i]["change"], expected[i].change);
    // A target in only one of the runs has no speedup: NaN in the store's answer, null in JSON.
    if (std::isfinite(expected[i].speedup)) EXPECT_DOUBLE_EQ(r["rows"][i]["speedup"].get<double>(), expected[i].speedup);
    else EXPECT_TRUE(r["rows"][i]["speedup"].is_null()) << r["rows"][i];
  }
  EXPECT_EQ(r["baseline"]["id"], a.id);
  EXPECT_EQ(r["candidate"]["id"], b.id);
  json one = s().ok("/api/compare?baseline=previous&candidate=latest&target=ch07:transpose");
  for (auto& row : one["rows"]) EXPECT_EQ(row["target"], "ch07:transpose");
  EXPECT_EQ(s().ok("/api/compare?baseline=latest&candidate=latest")["notes"].size(), 1u);
}

// The analysis endpoints return exactly what the engine computes for the same run (the CLI's numbers).
TEST_F(ServeApi, AnalysisEndpointsAreTheEnginesAnswers) {
  namespace an = aisp::analysis;
  an::Dataset d = an::load_store(s().db, "latest", 0);
  an::attach_capabilities(d.hardware, "", {s().artifacts / "hw"});
  auto rows = an::variant_rows(d.current().targets, an::derivation_inputs(d));
  json boards = s().ok("/api/analysis/leaderboards");
  EXPECT_EQ(boards["data"], an::to_json(an::leaderboards(rows, 10)));
  EXPECT_EQ(boards["capabilities"], s().caps_file.string());
  json pareto = s().ok("/api/analysis/pareto")["data"];
  auto expected = an::pareto(rows);
  ASSERT_EQ(pareto.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(pareto[i], an::to_json(expected[i]));
  an::WhatIfConstraints c;
  c.max_latency_ms = 1.0;
  EXPECT_EQ(s().ok("/api/analysis/whatif?latency=1")["data"], an::to_json(an::whatif(rows, c)));
  for (const char* kind : {"tradeoffs", "recommendations", "stacking", "power", "cost", "scaling"}) {
    json r = s().ok(std::string("/api/analysis/") + kind);
    EXPECT_FALSE(r["data"].is_null()) << kind;
    EXPECT_EQ(r["analysis"], kind);
  }
  EXPECT_EQ(s().ok("/api/analysis/recommendations?goal=memory")["data"],
            [&] {
              json out = json::array();
              for (auto& x : an::recommendations(rows, "memory")) out.push_back(an::to_json(x));
              return out;
            }());
}

TEST_F(ServeApi, RooflineUsesTheMeasuredCeilings) {
  json r = s().ok("/api/roofline");
  EXPECT_EQ(r["capabilities"], s().caps_file.string());
  ASSERT_TRUE(r["ceilings"].contains("f32")) << r["ceilings"].dump();
  EXPECT_DOUBLE_EQ(r["ceilings"]["f32"]["dram_bytes_per_s"].get<double>(), 3000e9);
  EXPECT_TRUE(r["ceilings"]["f32"]["measured_bandwidth"].get<bool>());
  size_t measured = 0;
  for (auto& t : latest_reference_targets()) measured += 1 + t.optimizations.size();
  EXPECT_EQ(r["points"].size(), measured);
}

TEST_F(ServeApi, HardwarePageListsCapabilitiesAndWhatRunsRecorded) {
  json hw = s().ok("/api/hw");
  ASSERT_EQ(hw["capabilities"].size(), 1u);
  EXPECT_EQ(hw["capabilities"][0]["ceilings"]["hbm_gbs"]["value"], 3000.0);
  ASSERT_EQ(hw["hardware"].size(), 1u);
  json manifest = read_json(reference_runs().back() / "manifest.json");
  EXPECT_EQ(hw["hardware"][0]["hardware"]["driver_version"], manifest["hardware"]["driver_version"]);
  EXPECT_EQ(hw["hardware"][0]["gpus"], manifest["gpus"]);
}

TEST_F(ServeApi, GpuSaysPlainlyWhenThereIsNone) {
  json g = s().ok("/api/gpu");
  ASSERT_TRUE(g.contains("available"));
  if (g["available"].get<bool>()) {
    EXPECT_GT(g["gpus"].size(), 0u);
    EXPECT_TRUE(g["gpus"][0].contains("sm_clock_mhz"));
  } else {
    EXPECT_NE(g["reason"].get<std::string>().find("no GPU"), std::string::npos) << g.dump();
  }
}

TEST_F(ServeApi, ProgressShowsTheRunInProgress) {
  json p = s().ok("/api/progress");
  ASSERT_EQ(p["active"].size(), 1u);
  EXPECT_EQ(p["active"][0]["run"], "20990101_000000__bench__live");
  EXPECT_EQ(p["active"][0]["target"], "ch07:transpose");
  EXPECT_EQ(p["active"][0]["completed"], 1);
  EXPECT_FALSE(p["active"][0]["probably_abandoned"].get<bool>());
  EXPECT_EQ(p["last_finished"]["run"], "20980101_000000__bench__done");
}

TEST_F(ServeApi, TargetsIncludeBenchRootPairsNeverRun) {
  json t = s().ok("/api/targets");
  std::map<std::string, json> by_id;
  for (auto& x : t["targets"]) by_id[x["target"]] = x;
  ASSERT_TRUE(by_id.count("ch99:never"));
  EXPECT_FALSE(by_id["ch99:never"]["measured"].get<bool>());
  EXPECT_TRUE(by_id["ch07:transpose"]["measured"].get<bool>());
  EXPECT_EQ(by_id["ch07:transpose"]["variants_in_bench_root"], json::array({"transpose"}));
  EXPECT_EQ(t["discovered_in_bench_root"], 2);
}

TEST_F(ServeApi, ServesTheUiAndNothingElse) {
  auto c = s().client();
  auto index = c.Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(index->body.find("<title>aisp"), std::string::npos);
  EXPECT_NE(index->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
  auto chart = c.Get("/vendor/uPlot.iife.min.js");
  ASSERT_TRUE(chart);
  EXPECT_EQ(chart->status, 200) << "the chart library is vendored into the build (web/CMakeLists.txt)";
  EXPECT_EQ(c.Get("/no/such/page.html")->status, 404);
  auto post = c.Post("/api/summary", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto head = c.Head("/api/summary");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
}

// Last in this suite's file order, but independent of it: hashes the file after everything above ran.
TEST_F(ServeApi, TheStoreFileIsNeverWritten) {
  std::string before = read_file(s().db);
  for (const char* path : {"/api/summary", "/api/benchmarks", "/api/runs", "/api/runs/latest", "/api/hw",
                           "/api/analysis/leaderboards", "/api/analysis/scaling", "/api/roofline",
                           "/api/compare?baseline=previous&candidate=latest"})
    s().ok(path);
  EXPECT_EQ(read_file(s().db), before);
}

// Runs stored while the server runs appear at the next request (WAL; nothing about the run list is cached).
TEST(ServeLive, RunsStoredWhileServingAppear) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  auto refs = reference_runs();
  { Store::open(db).ingest_run(refs[0]); }
  ServeConfig c;
  c.db = db;
  DashboardServer server(c);
  int port = server.bind("127.0.0.1", 0);
  std::thread t([&] { server.run(); });
  httplib::Client client("127.0.0.1", port);
  auto total = [&] { return json::parse(client.Get("/api/runs")->body)["result"]["total"].get<int>(); };
  EXPECT_EQ(total(), 1);
  Store::open(db).ingest_run(refs[1]);
  EXPECT_EQ(total(), 2);
  EXPECT_EQ(client.Get("/")->status, 404) << "no web root configured: the API only";
  server.stop();
  t.join();
}

// A level shift in a variant's history is marked on the run where it starts (the store's change-point
// detector, as `aisp bench history` shows it); synthetic runs, since the reference runs have none.
TEST(ServeLive, HistoryMarksTheRunWhereALevelShifts) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  Store store = Store::open(db);
  for (int run = 0; run < 6; ++run) {
    double variant_ms = run < 3 ? 1.0 : 1.3;  // 30% slower from the fourth run on
    TargetResult t;
    t.id = "ch07:shift";
    t.chapter = "ch07";
    t.example = "shift";
    t.status = "succeeded";
    t.mode = "cold";
    t.baseline.name = "baseline";
    t.baseline.status = "succeeded";
    VariantResult v;
    v.name = "fast";
    v.status = "succeeded";
    v.verdict = "FASTER";
    v.verification = Verification{};
    v.verification->passed = true;
    for (int i = 0; i < 40; ++i) {
      t.baseline.samples_ms.push_back(2.0 * (1 + 0.002 * std::sin(i + run)));
      v.samples_ms.push_back(variant_ms * (1 + 0.002 * std::cos(i + run)));
    }
    t.baseline.timing = summarize(t.baseline.samples_ms);
    v.timing = summarize(v.samples_ms);
    v.speedup = t.baseline.timing.median / v.timing.median;
    v.ci_low = v.speedup * 0.99;
    v.ci_high = v.speedup * 1.01;
    t.optimizations = {v};
    fs::path dir = tmp.path / "runs" / ("2026010" + std::to_string(run + 1) + "_000000__bench__shift");
    write_json_atomic(dir / "manifest.json", {{"kind", "bench"}, {"mode", "cold"},
                                              {"hardware", {{"hardware_key", "h100_80gb_hbm3"}}}});
    write_json_atomic(dir / "results" / "benchmark_test_results.json", results_document({t}, "2026-01-01T00:00:00"));
    write_json_atomic(dir / "progress" / "run_progress.json", {{"state", "finished"}});
    store.ingest_run(dir);
  }
  ServeConfig c;
  c.db = db;
  DashboardServer server(c);
  int port = server.bind("127.0.0.1", 0);
  std::thread th([&] { server.run(); });
  httplib::Client client("127.0.0.1", port);
  json rows = json::parse(client.Get("/api/targets/ch07:shift/history")->body)["result"]["rows"];
  ASSERT_EQ(rows.size(), 6u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(rows[i]["baseline_change"].is_null()) << i;
    if (i == 3) {
      ASSERT_TRUE(rows[i]["variant_change"].is_object()) << rows[i].dump();
      EXPECT_NEAR(rows[i]["variant_change"]["rel_shift"].get<double>(), 0.3, 0.01);
    } else {
      EXPECT_TRUE(rows[i]["variant_change"].is_null()) << i;
    }
  }
  server.stop();
  th.join();
}

// A stop that arrives between bind() and run() (SIGTERM right at start-up) must not be lost.
TEST(ServeLive, AStopBeforeRunIsNotLost) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  { Store::open(db).ingest_run(reference_runs()[0]); }
  ServeConfig c;
  c.db = db;
  DashboardServer server(c);
  server.bind("127.0.0.1", 0);
  server.stop();
  auto done = std::async(std::launch::async, [&] { server.run(); });
  EXPECT_EQ(done.wait_for(std::chrono::seconds(5)), std::future_status::ready) << "run() went on after stop()";
  if (done.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    server.stop();
    done.wait();
  }
}

TEST(ServeLive, AMissingStoreIsAnErrorNamingIt) {
  TempDir tmp;
  ServeConfig c;
  c.db = tmp.path / "none.db";
  try {
    DashboardServer server(c);
    FAIL() << "started without a store";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((tmp.path / "none.db").string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(tmp.path / "none.db"));
}

TEST(ServeLive, LoopbackHostsAreRecognised) {
  for (const char* h : {"127.0.0.1", "127.1.2.3", "localhost", "::1"}) EXPECT_TRUE(is_loopback_host(h)) << h;
  for (const char* h : {"0.0.0.0", "192.168.1.5", "::", "example.com"}) EXPECT_FALSE(is_loopback_host(h)) << h;
}

}  // namespace
}  // namespace aisp::serve::testing
