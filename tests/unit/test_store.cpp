// The results store on synthetic run directories: round trip, idempotence, migration from a v1 file (from
// a real v3 store: test_store_migration.cpp), corrupt/truncated files (named, untouched, nothing inserted),
// a killed ingest, concurrent writers, history with change points, run comparison and run lookup.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/file_names.hpp"
#include "core/json_io.hpp"
#include "core/verdict.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aisp_store_XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<double> samples_around(double ms, size_t n, double spread = 0.01) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(ms * (1 + spread * std::sin(static_cast<double>(i) * 0.9)));
  return v;
}

TargetResult make_target(const std::string& id, double base_ms, double opt_ms, size_t n = 50) {
  TargetResult t;
  t.id = id;
  t.chapter = id.substr(0, id.find(':'));
  t.example = id.substr(id.find(':') + 1);
  t.status = status::succeeded;
  t.mode = "cold";
  t.workload = {{"params", {{"n", 1024}}}, {"bytes", 8192}};
  t.baseline.name = "baseline";
  t.baseline.status = status::succeeded;
  t.baseline.samples_ms = samples_around(base_ms, n);
  t.baseline.wall_ms = samples_around(base_ms * 1.1, n);
  t.baseline.timing = summarize(t.baseline.samples_ms);
  t.baseline.checks = {{"K4", "inputs unchanged by run()", true, "ok"}};
  VariantResult o;
  o.name = "fast";
  o.status = status::succeeded;
  o.samples_ms = samples_around(opt_ms, n);
  o.timing = summarize(o.samples_ms);
  o.audit_samples_ms = {opt_ms, opt_ms};
  o.speedup = base_ms / opt_ms;
  o.ci_low = o.speedup * 0.98;
  o.ci_high = o.speedup * 1.02;
  o.verdict = "FASTER";
  o.verification = Verification{};
  o.verification->passed = true;
  o.checks = {{"K2", "outputs match", true, "1024 elements"}, {"K1", "poison", false, "3 unwritten"}};
  t.optimizations = {o};
  t.best_speedup = o.speedup;
  t.best_optimization = "fast";
  t.seeds = {7, 8};
  return t;
}

// A finished run directory as bench_suite writes it (manifest, results, samples with telemetry, progress).
fs::path write_run(const fs::path& root, const std::string& name, const std::vector<TargetResult>& targets,
                   const std::string& commit = "abc123", const std::string& state = "finished",
                   const std::string& mode = "cold") {
  fs::path dir = root / "runs" / name;
  json manifest = {{"kind", "bench"}, {"mode", mode}, {"start_time", "2026-01-01T00:00:00+0000 " + name},
                   {"end_time", "2026-01-01T00:01:00+0000"}, {"duration_seconds", 60.0},
                   {"git", {{"commit", commit}, {"branch", "main"}, {"dirty", false}}},
                   {"hardware", {{"hardware_key", "h100_80gb_hbm3"}, {"gpu_model", "NVIDIA H100 80GB HBM3"},
                                 {"gpu_clock_mhz", 1980.0}, {"temperature_gpu_c", 40.0}}}};
  write_json_atomic(dir / "manifest.json", manifest);
  write_json_atomic(dir / "results" / "benchmark_test_results.json", results_document(targets, "2026-01-01T00:00:00"));
  for (auto& t : targets)
    write_json_atomic(dir / "samples" / (file_slug(t.id) + ".json"),
                      {{"target", t.id}, {"variants", {{{"name", "baseline"}, {"gpu_ms", t.baseline.samples_ms},
                                                        {"sm_mhz", {1980, 1975}}, {"temp_c", {41, 42}}}}}});
  write_json_atomic(dir / "progress" / "run_progress.json", {{"state", state}});
  return dir;
}

int64_t count(const fs::path& db, const std::string& table) {
  sql::Db d(db, SQLITE_OPEN_READONLY);
  return d.scalar_int("SELECT count(*) FROM " + table);
}

TEST(Store, RoundTripRebuildsTheResults) {
  TempDir tmp;
  std::vector<TargetResult> targets = {make_target("ch07:copy", 2.0, 1.0), make_target("ch01:gemm", 5.0, 4.0)};
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", targets);
  Store store = Store::open(tmp.path / "aisp.db");
  EXPECT_EQ(store.schema_version(), kStoreSchemaVersion);
  IngestOutcome r = store.ingest_run(run);
  EXPECT_TRUE(r.inserted) << r.message;
  auto runs = store.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].key, "20260101_000001__bench__t");
  EXPECT_EQ(runs[0].stamp, "20260101_000001");
  EXPECT_EQ(runs[0].git_commit, "abc123");
  EXPECT_EQ(runs[0].hardware_key, "h100_80gb_hbm3");
  EXPECT_EQ(runs[0].targets, 2);
  EXPECT_TRUE(runs[0].complete);
  // Rebuilt from rows, every target serializes exactly as the results file had it (order: by chapter).
  auto loaded = store.load_run(runs[0].id);
  auto original = targets_from_document(read_json(run / "results" / "benchmark_test_results.json"));
  ASSERT_EQ(loaded.size(), original.size());
  for (size_t i = 0; i < loaded.size(); ++i) EXPECT_EQ(to_json(loaded[i]), to_json(original[i])) << loaded[i].id;
  EXPECT_EQ(count(store.path(), "samples"), 2 * (50 + 50 + 50 + 2));  // per target: gpu+wall baseline, gpu+audit fast
  EXPECT_EQ(count(store.path(), "checks"), 2 * 3);
  EXPECT_EQ(count(store.path(), "manifests"), 1);
  // sm_mhz/temp_c per target from the samples files; the manifest's hardware snapshot stays in the manifest.
  EXPECT_EQ(count(store.path(), "telemetry"), 2 * 4);
}

TEST(Store, ReingestingTheSameRunIsANoOp) {
  TempDir tmp;
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2.0, 1.0)});
  Store store = Store::open(tmp.path / "aisp.db");
  IngestOutcome first = store.ingest_run(run);
  ASSERT_TRUE(first.inserted);
  std::vector<const char*> tables = {"runs", "targets", "variants", "samples", "telemetry", "checks"};
  std::vector<int64_t> before;
  for (auto* t : tables) before.push_back(count(store.path(), t));
  IngestOutcome again = store.ingest_run(run / "manifest.json");  // a file inside the run names it too
  EXPECT_FALSE(again.inserted);
  EXPECT_NE(again.message.find("already"), std::string::npos) << again.message;
  EXPECT_EQ(again.run.id, first.run.id);
  EXPECT_EQ(again.run.key, first.run.key);
  EXPECT_EQ(store.list_runs().size(), 1u);
  for (size_t i = 0; i < tables.size(); ++i) EXPECT_EQ(count(store.path(), tables[i]), before[i]) << tables[i];
}

// The v1 schema exactly as the first release created it (frozen here on purpose: it is the old file).
constexpr const char* kV1Schema = R"sql(
CREATE TABLE runs (id INTEGER PRIMARY KEY, run_key TEXT NOT NULL UNIQUE, stamp TEXT, label TEXT, kind TEXT,
  mode TEXT, started_at TEXT, ended_at TEXT, duration_s REAL, git_commit TEXT, git_branch TEXT, git_dirty INTEGER,
  hardware_key TEXT, gpu_model TEXT, gpu_uuid TEXT, driver_version TEXT, cuda_version TEXT, results_schema INTEGER,
  run_dir TEXT, ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))) STRICT;
CREATE TABLE manifests (run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, json TEXT NOT NULL) STRICT;
CREATE TABLE targets (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target TEXT NOT NULL, chapter TEXT, example TEXT, status TEXT, error TEXT, mode TEXT, goal TEXT,
  best_speedup REAL, best_optimization TEXT, doc TEXT NOT NULL, UNIQUE (run_id, target)) STRICT;
CREATE TABLE variants (id INTEGER PRIMARY KEY, target_row INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL, name TEXT NOT NULL, status TEXT, verdict TEXT, n INTEGER, median_ms REAL,
  median_low_ms REAL, median_high_ms REAL, mean_ms REAL, p90_ms REAL, rel_noise REAL, speedup REAL, ci_low REAL,
  ci_high REAL, p_value REAL, peak_memory_mb REAL, verified INTEGER, doc TEXT NOT NULL, UNIQUE (target_row, position)) STRICT;
CREATE TABLE samples (variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, kind TEXT NOT NULL,
  seq INTEGER NOT NULL, value_ms REAL, PRIMARY KEY (variant_id, kind, seq)) STRICT, WITHOUT ROWID;
CREATE TABLE checks (variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  check_id TEXT, name TEXT, passed INTEGER, detail TEXT, PRIMARY KEY (variant_id, seq)) STRICT, WITHOUT ROWID;
INSERT INTO runs (run_key, stamp, git_commit, hardware_key) VALUES ('20250101_000000__bench__old', '20250101_000000', 'old1', 'h100_80gb_hbm3');
PRAGMA user_version = 1;
)sql";

TEST(Store, MigratesAVersion1File) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  {
    sql::Db d(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    d.exec(kV1Schema);
  }
  Store store = Store::open(db);
  EXPECT_EQ(store.schema_version(), kStoreSchemaVersion);  // v1 -> v2 -> v3 (profiles) -> v4 in one open
  auto runs = store.list_runs();
  ASSERT_EQ(runs.size(), 1u);  // the old data survived
  EXPECT_EQ(runs[0].key, "20250101_000000__bench__old");
  EXPECT_TRUE(runs[0].complete);  // v2's column, defaulted for old runs
  // A run without a manifest row (never written by ingest): v4 keeps its columns as its manifest.
  EXPECT_EQ(runs[0].git_commit, "old1");
  EXPECT_EQ(runs[0].hardware_key, "h100_80gb_hbm3");
  EXPECT_EQ(runs[0].stamp, "20250101_000000");
  EXPECT_EQ(runs[0].label, "old");
  // v2's telemetry table is usable: a new run with telemetry goes in.
  EXPECT_TRUE(store.ingest_run(write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1)})).inserted);
  EXPECT_GT(count(db, "telemetry"), 0);
  EXPECT_EQ(count(db, "profiles"), 0);  // v3's tables exist
  EXPECT_EQ(Store::open(db).schema_version(), kStoreSchemaVersion);  // opening again migrates nothing
}

TEST(Store, RefusesANewerSchema) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  {
    sql::Db d(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    d.exec(fmt::format("CREATE TABLE x (y INTEGER); PRAGMA user_version = {};", kStoreSchemaVersion + 1));
  }
  std::string before = read_file(db);
  try {
    Store::open(db);
    FAIL() << "opened a newer store";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(fmt::format("schema version {} is newer than this aisp understands ({})",
                                    kStoreSchemaVersion + 1, kStoreSchemaVersion)), std::string::npos) << what;
    EXPECT_NE(what.find(db.string()), std::string::npos) << what;
  }
  EXPECT_THROW(Store::open_read_only(db), std::runtime_error);
  EXPECT_EQ(read_file(db), before);  // refused before anything is written, WAL switch included
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));
}

void expect_refused_untouched(const fs::path& db) {
  std::string before = read_file(db);
  try {
    Store::open(db);
    FAIL() << "opened " << db;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("untouched"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file(db), before);
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));
}

TEST(Store, CorruptFileIsNamedAndLeftAlone) {
  TempDir tmp;
  fs::path garbage = tmp.path / "garbage.db";
  std::string bytes;
  for (int i = 0; i < 8192; ++i) bytes.push_back(static_cast<char>((i * 7919) & 0xff));
  write_file_atomic(garbage, bytes);
  expect_refused_untouched(garbage);
  // A results JSON passed as the store by mistake.
  fs::path json_file = tmp.path / "results.db";
  write_file_atomic(json_file, R"({"results": []})");
  expect_refused_untouched(json_file);
}

TEST(Store, TruncatedDatabaseIsNamedAndLeftAlone) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  {
    Store store = Store::open(db);
    for (int i = 0; i < 3; ++i)
      store.ingest_run(write_run(tmp.path, fmt::format("2026010{}_000001__bench__t", i + 1),
                                 {make_target("ch07:copy", 2, 1, 2000), make_target("ch01:gemm", 5, 4, 2000)}));
  }
  auto size = fs::file_size(db);
  ASSERT_GT(size, 40000u);
  fs::resize_file(db, size / 2);  // a half-copied file
  expect_refused_untouched(db);
  fs::resize_file(db, 300);  // shorter than one page
  expect_refused_untouched(db);
}

TEST(Store, TruncatedResultsFileIsNamedAndNothingIsInserted) {
  TempDir tmp;
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1)});
  fs::path results = run / "results" / "benchmark_test_results.json";
  std::string text = read_file(results);
  write_file_atomic(results, text.substr(0, text.size() / 2));
  Store store = Store::open(tmp.path / "aisp.db");
  try {
    store.ingest_run(run);
    FAIL() << "ingested a truncated file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(results.string()), std::string::npos) << e.what();
  }
  EXPECT_TRUE(store.list_runs().empty());
}

TEST(Store, FailureInsideTheTransactionRollsBackEverything) {
  TempDir tmp;
  // Two results for one target: the second violates UNIQUE(run_id, target) after the run row and the
  // first target's rows are in.
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1), make_target("ch07:copy", 2, 1)});
  Store store = Store::open(tmp.path / "aisp.db");
  EXPECT_THROW(store.ingest_run(run), std::runtime_error);
  for (auto* table : {"runs", "manifests", "targets", "variants", "samples", "checks", "telemetry"})
    EXPECT_EQ(count(store.path(), table), 0) << table;
}

TEST(Store, UnfinishedRunIsRefusedUnlessAskedFor) {
  TempDir tmp;
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1)}, "abc", "running");
  Store store = Store::open(tmp.path / "aisp.db");
  try {
    store.ingest_run(run);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("did not finish"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(store.list_runs().empty());
  IngestOptions o;
  o.allow_partial = true;
  EXPECT_TRUE(store.ingest_run(run, o).inserted);
  EXPECT_FALSE(store.list_runs().at(0).complete);
}

TEST(Store, KilledIngestLeavesNoPartialRun) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  fs::path run = write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1), make_target("ch01:gemm", 5, 4)});
  Store::open(db);  // created before the fork, so the child only inserts
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    IngestOptions o;
    o.on_target_inserted = [](const std::string&) { raise(SIGKILL); };  // dies with rows written, uncommitted
    Store::open(db).ingest_run(run, o);
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFSIGNALED(st));
  Store store = Store::open(db);  // passes quick_check after the kill
  EXPECT_TRUE(store.list_runs().empty());
  EXPECT_EQ(count(db, "samples"), 0);
  EXPECT_TRUE(store.ingest_run(run).inserted);
}

TEST(Store, ConcurrentWritersBothLand) {
  TempDir tmp;
  fs::path db = tmp.path / "fresh" / "aisp.db";  // neither process finds a store: both create and migrate
  std::vector<fs::path> runs;
  for (int i = 0; i < 4; ++i)
    runs.push_back(write_run(tmp.path, fmt::format("2026010{}_000001__bench__t", i + 1),
                             {make_target("ch07:copy", 2, 1, 5000), make_target("ch01:gemm", 5, 4, 5000)}));
  std::vector<pid_t> kids;
  for (auto& run : runs) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        _exit(Store::open(db).ingest_run(run).inserted ? 0 : 3);
      } catch (const std::exception& e) {
        fprintf(stderr, "child: %s\n", e.what());
        _exit(1);
      }
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "status " << st;
  }
  EXPECT_EQ(Store::open(db).list_runs().size(), runs.size());
}

TEST(Store, HistoryMarksTheRunWhereTheLevelShifts) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  for (int i = 0; i < 8; ++i) {
    double opt = i < 4 ? 1.0 : 1.4;  // the optimized variant regresses from run 5 on
    store.ingest_run(write_run(tmp.path, fmt::format("2026010{}_000001__bench__t", i + 1),
                               {make_target("ch07:copy", 2.0, opt)}, fmt::format("c{}", i)));
  }
  auto rows = store.history("ch07:copy");
  ASSERT_EQ(rows.size(), 8u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].variant, "fast");
    EXPECT_FALSE(rows[i].baseline_change) << i;
    EXPECT_EQ(rows[i].variant_change.has_value(), i == 4) << i;
  }
  EXPECT_NEAR(rows[4].variant_change->rel_shift, 0.4, 0.02);
  EXPECT_EQ(rows[0].run.git_commit, "c0");
  EXPECT_NEAR(rows[0].baseline_ms, 2.0, 0.03);
  EXPECT_LT(rows[0].baseline_low, rows[0].baseline_ms);
  EXPECT_TRUE(store.history("ch07:nothing").empty());
  // Runs in another timing mode are another series: a different level there is not a shift here.
  for (int i = 0; i < 4; ++i)
    store.ingest_run(write_run(tmp.path, fmt::format("2026020{}_000001__bench__hot", i + 1),
                               {make_target("ch07:copy", 1.0, 0.5)}, "h", "finished", "hot"));
  auto mixed = store.history("ch07:copy");
  ASSERT_EQ(mixed.size(), 12u);
  for (size_t i = 0; i < mixed.size(); ++i) {
    EXPECT_FALSE(mixed[i].baseline_change) << i;
    EXPECT_EQ(mixed[i].variant_change.has_value(), i == 4) << i;
  }
  EXPECT_TRUE(store.history("ch07:copy", "b200").empty());

  auto cmp = store.compare_runs(store.resolve_run("20260101").id, store.resolve_run("20260108").id);
  ASSERT_EQ(cmp.size(), 2u);
  EXPECT_EQ(cmp[0].variant, "baseline");
  EXPECT_EQ(cmp[0].change, "same");
  EXPECT_EQ(cmp[1].variant, "fast");
  EXPECT_EQ(cmp[1].change, "slower");
  EXPECT_NEAR(cmp[1].ratio, 1.4, 0.02);
  EXPECT_FALSE(cmp[1].ci_overlap);
}

TEST(Store, CompareListsTargetsInOneRunOnly) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  store.ingest_run(write_run(tmp.path, "20260101_000001__bench__a", {make_target("ch07:copy", 2, 1)}));
  store.ingest_run(write_run(tmp.path, "20260102_000001__bench__b", {make_target("ch01:gemm", 2, 1)}));
  auto cmp = store.compare_runs(store.resolve_run("previous").id, store.resolve_run("latest").id);
  ASSERT_EQ(cmp.size(), 4u);
  EXPECT_EQ(cmp[0].target, "ch01:gemm");
  EXPECT_EQ(cmp[0].change, "only in B");
  EXPECT_EQ(cmp[2].change, "only in A");
}

TEST(Store, ResolvesRunsByIdNamePathAndPrefix) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  fs::path a = write_run(tmp.path, "20260101_000001__bench__alpha", {make_target("ch07:copy", 2, 1)});
  store.ingest_run(a);
  store.ingest_run(write_run(tmp.path, "20260102_000001__bench__beta", {make_target("ch07:copy", 2, 1)}));
  int64_t id = store.list_runs()[0].id;
  EXPECT_EQ(store.resolve_run(std::to_string(id)).key, "20260101_000001__bench__alpha");
  EXPECT_EQ(store.resolve_run("20260101_000001__bench__alpha").id, id);
  EXPECT_EQ(store.resolve_run(a.string() + "/").id, id);
  EXPECT_EQ(store.resolve_run("20260101").id, id);
  EXPECT_EQ(store.resolve_run("latest").label, "beta");
  try {
    store.resolve_run("20260101_000001__bench__alpah");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nearest: 20260101_000001__bench__alpha"), std::string::npos) << e.what();
  }
  EXPECT_THROW(store.resolve_run("2026010"), std::runtime_error);  // ambiguous prefix
}

// The one read path the analyses and the dashboard share: a run with its manifest and per-target telemetry.
TEST(Store, LoadStoredRunCarriesManifestAndTelemetry) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  TargetResult copy = make_target("ch07:copy", 2.0, 1.0);
  copy.optimizations[0].telemetry = {{"power_w", {300.0, 310.0}}, {"note", "not a series"}};
  store.ingest_run(write_run(tmp.path, "20260101_000001__bench__t", {copy, make_target("ch01:gemm", 5.0, 4.0)}));
  // A variant's "telemetry" object is kept once, in its doc, and read from there.
  EXPECT_EQ(count(store.path(), "telemetry"), 2 * 4);
  StoredRun run = store.load_stored_run(store.resolve_run("latest"));
  EXPECT_EQ(run.telemetry.at("ch07:copy").at("fast").at("power_w"), (std::vector<double>{300, 310}));
  EXPECT_EQ(run.telemetry.at("ch07:copy").at("fast").count("note"), 0u);
  EXPECT_EQ(run.info.key, "20260101_000001__bench__t");
  ASSERT_EQ(run.targets.size(), 2u);
  EXPECT_EQ(run.manifest.at("git").at("commit"), "abc123");
  EXPECT_EQ(run.telemetry.at("ch07:copy").at("baseline").at("sm_mhz"), (std::vector<double>{1980, 1975}));
  EXPECT_EQ(run.telemetry.at("ch01:gemm").at("baseline").at("temp_c"), (std::vector<double>{41, 42}));
  // Run-level rows are the manifest's hardware snapshot: in `manifest`, not repeated as telemetry.
  EXPECT_EQ(run.telemetry.count(""), 0u);
}

TEST(Store, FindRunsKeepsLikeForLikeEarlierRuns) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  auto t = std::vector<TargetResult>{make_target("ch07:copy", 2, 1)};
  store.ingest_run(write_run(tmp.path, "20260101_000001__bench__a", t));
  store.ingest_run(write_run(tmp.path, "20260102_000001__bench__calibrate-x", t));
  store.ingest_run(write_run(tmp.path, "20260103_000001__bench__warm", t, "abc123", "finished", "warm"));
  store.ingest_run(write_run(tmp.path, "20260104_000001__bench__d", t));
  store.ingest_run(write_run(tmp.path, "20260105_000001__bench__e", t));
  RunInfo latest = store.resolve_run("latest");
  RunFilter f;
  f.mode = "cold";
  f.skip_calibration = true;
  f.before_run = latest.id;
  auto keys = [&] {
    std::vector<std::string> out;
    for (auto& r : store.find_runs(f)) out.push_back(r.key);
    return out;
  };
  EXPECT_EQ(keys(), (std::vector<std::string>{"20260101_000001__bench__a", "20260104_000001__bench__d"}));
  f.newest = 1;
  EXPECT_EQ(keys(), (std::vector<std::string>{"20260104_000001__bench__d"}));
  f.newest = 0;
  EXPECT_TRUE(keys().empty());
  // The analyses' rule: earlier, same hardware key and mode, complete, not calibration.
  f = earlier_like(latest, 50);
  EXPECT_EQ(keys(), (std::vector<std::string>{"20260101_000001__bench__a", "20260104_000001__bench__d"}));
  f = RunFilter{};
  f.hardware_key = "";  // set: must equal "", which no run here has
  EXPECT_TRUE(keys().empty());
  EXPECT_EQ(store.load_runs(RunFilter{}).size(), 5u);
  // The newest non-calibration run per (target, hardware key).
  auto latest_rows = store.latest_results();
  ASSERT_EQ(latest_rows.size(), 1u);
  EXPECT_EQ(latest_rows[0].run_id, latest.id);
  EXPECT_TRUE(is_calibration(store.resolve_run("20260102").label, ""));
}

// The dashboard's cache key: another connection's commit changes data_version, a read does not.
TEST(Store, DataVersionChangesWhenAnotherConnectionCommits) {
  TempDir tmp;
  Store writer = Store::open(tmp.path / "aisp.db");
  Store reader = Store::open_read_only(tmp.path / "aisp.db");
  int64_t before = reader.data_version();
  reader.list_runs();
  EXPECT_EQ(reader.data_version(), before);
  writer.ingest_run(write_run(tmp.path, "20260101_000001__bench__t", {make_target("ch07:copy", 2, 1)}));
  EXPECT_NE(reader.data_version(), before);
}

TEST(Store, OpeningAMissingStoreWithoutCreateSaysSo) {
  TempDir tmp;
  try {
    Store::open(tmp.path / "none.db", false);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("none.db"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(tmp.path / "none.db"));
}

}  // namespace
}  // namespace aisp
