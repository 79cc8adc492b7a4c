// Schema v3 -> v4 (each run kept once: the JSON, with generated columns over it) on a store the v3 code
// wrote: tests/data/store_v3/store_v3.sql, the v3 ingest of tests/data/store_v3/runs/ (see its README).
// Checks that the migration loses nothing (every column, check and telemetry series reads as before), that
// a migrated store equals a fresh v4 ingest of the same run directories, that a migration which would
// change a value is refused with the store left at v3, and that v4 keeps no field twice.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/json_io.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aisp_store_migration_XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

const fs::path kFixture = fs::path(AISP_TEST_DATA_DIR) / "store_v3";

fs::path make_v3_store(const fs::path& dir) {
  fs::path db = dir / "v3.db";
  sql::Db d(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  d.exec(read_file(kFixture / "store_v3.sql"));
  return db;
}

std::vector<fs::path> fixture_runs() {
  std::vector<fs::path> runs;
  for (auto& e : fs::directory_iterator(kFixture / "runs")) runs.push_back(e.path());
  std::sort(runs.begin(), runs.end());
  return runs;
}

// Every row of `query` as text ("NULL" for NULL), `columns` wide.
using Rows = std::vector<std::vector<std::string>>;
Rows rows(const fs::path& db, const std::string& query, int columns) {
  sql::Db d(db, SQLITE_OPEN_READONLY);
  sql::Statement st(d, query);
  Rows out;
  while (st.step()) {
    out.emplace_back();
    for (int c = 0; c < columns; ++c) out.back().push_back(st.is_null(c) ? "NULL" : st.text(c));
  }
  return out;
}

// The columns every reader and ad-hoc query used in v3, by name: v4 must answer them identically.
const std::string kRunsQuery =
    "SELECT id, run_key, stamp, label, kind, mode, started_at, ended_at, duration_s, git_commit, git_branch, "
    "git_dirty, hardware_key, gpu_model, gpu_uuid, driver_version, cuda_version, results_schema, run_dir, "
    "ingested_at, complete FROM runs ORDER BY id";
const std::string kTargetsQuery =
    "SELECT id, run_id, target, chapter, example, status, error, mode, goal, best_speedup, best_optimization "
    "FROM targets ORDER BY id";
const std::string kVariantsQuery =
    "SELECT id, target_row, position, name, status, verdict, n, median_ms, median_low_ms, median_high_ms, mean_ms, "
    "p90_ms, rel_noise, speedup, ci_low, ci_high, p_value, peak_memory_mb, verified FROM variants ORDER BY id";
const std::string kChecksQuery = "SELECT variant_id, seq, check_id, name, passed, detail FROM checks ORDER BY 1, 2";
const std::string kManifestsQuery = "SELECT run_id, json FROM manifests ORDER BY run_id";

TelemetrySeries v3_telemetry(const fs::path& db, int64_t run_id) {
  sql::Db d(db, SQLITE_OPEN_READONLY);
  sql::Statement st(d, "SELECT target, variant, metric, value FROM telemetry WHERE run_id = ? AND target != '' "
                       "ORDER BY target, variant, metric, seq");
  st.bind(1, run_id);
  TelemetrySeries out;
  while (st.step()) out[st.text(0)][st.text(1)][st.text(2)].push_back(st.real(3));
  return out;
}

TEST(StoreMigration, AVersion3StoreReadsExactlyAsBefore) {
  TempDir tmp;
  fs::path db = make_v3_store(tmp.path);
  Rows runs = rows(db, kRunsQuery, 21), targets = rows(db, kTargetsQuery, 11), variants = rows(db, kVariantsQuery, 19);
  Rows checks = rows(db, kChecksQuery, 6), manifests = rows(db, kManifestsQuery, 2);
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(variants.size(), 8u);
  ASSERT_GT(checks.size(), 50u);
  std::map<int64_t, TelemetrySeries> telemetry;
  for (int64_t id : {1, 2}) telemetry[id] = v3_telemetry(db, id);

  int64_t v3_pages = std::stoll(rows(db, "PRAGMA page_count", 1).at(0).at(0));
  Store store = Store::open(db);  // migrates v3 -> v4 in one transaction
  EXPECT_EQ(store.schema_version(), kStoreSchemaVersion);
  // The old tables' pages went back to the filesystem: the file is smaller, not larger, than at v3.
  EXPECT_EQ(rows(db, "PRAGMA freelist_count", 1), (Rows{{"0"}}));
  EXPECT_LT(std::stoll(rows(db, "PRAGMA page_count", 1).at(0).at(0)), v3_pages);
  EXPECT_EQ(rows(db, kRunsQuery, 21), runs);
  EXPECT_EQ(rows(db, kTargetsQuery, 11), targets);
  EXPECT_EQ(rows(db, kVariantsQuery, 19), variants);
  EXPECT_EQ(rows(db, kChecksQuery, 6), checks);  // now a view over the variants' "checks"
  EXPECT_EQ(rows(db, kManifestsQuery, 2), manifests);
  for (auto& run : store.list_runs()) {
    StoredRun loaded = store.load_stored_run(run);
    // Every per-variant series, the ones v4 reads from the docs included, as the v3 table held it.
    EXPECT_EQ(loaded.telemetry, telemetry[run.id]) << run.key;
    auto original = targets_from_document(read_json(kFixture / "runs" / run.key / "results" /
                                                    "benchmark_test_results.json"));
    ASSERT_EQ(loaded.targets.size(), original.size());
    for (size_t i = 0; i < original.size(); ++i) EXPECT_EQ(to_json(loaded.targets[i]), to_json(original[i]));
  }
  // The fixture's second run has a samples file: sm_mhz exists only there and temp_c differs from the
  // variant's own, so both stay rows; its power_w equals the variant's and is read from the doc.
  EXPECT_EQ(rows(db, "SELECT DISTINCT metric FROM telemetry ORDER BY 1", 1), (Rows{{"sm_mhz"}, {"temp_c"}}));
  EXPECT_EQ(Store::open(db).schema_version(), kStoreSchemaVersion);  // opening again migrates nothing
}

TEST(StoreMigration, AMigratedStoreEqualsAFreshIngest) {
  TempDir tmp;
  fs::path migrated_db = make_v3_store(tmp.path);
  Store migrated = Store::open(migrated_db);
  Store fresh = Store::open(tmp.path / "fresh.db");
  for (auto& run : fixture_runs()) {
    EXPECT_TRUE(fresh.ingest_run(run).inserted);
    IngestOutcome again = migrated.ingest_run(run);  // ingest stays idempotent across the migration
    EXPECT_FALSE(again.inserted) << again.message;
  }
  auto a = migrated.list_runs(), b = fresh.list_runs();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    b[i].run_dir = a[i].run_dir;  // where each was ingested from is all that may differ
    EXPECT_EQ(fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {}", a[i].id, a[i].key, a[i].stamp, a[i].label, a[i].kind,
                          a[i].mode, a[i].started_at, a[i].ended_at, a[i].git_commit, a[i].git_branch, a[i].git_dirty,
                          a[i].hardware_key, a[i].gpu_model),
              fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {}", b[i].id, b[i].key, b[i].stamp, b[i].label, b[i].kind,
                          b[i].mode, b[i].started_at, b[i].ended_at, b[i].git_commit, b[i].git_branch, b[i].git_dirty,
                          b[i].hardware_key, b[i].gpu_model));
    EXPECT_EQ(a[i].targets, b[i].targets);
    StoredRun x = migrated.load_stored_run(a[i]), y = fresh.load_stored_run(b[i]);
    EXPECT_EQ(x.manifest, y.manifest);
    EXPECT_EQ(x.telemetry, y.telemetry);
    ASSERT_EQ(x.targets.size(), y.targets.size());
    for (size_t t = 0; t < x.targets.size(); ++t) EXPECT_EQ(to_json(x.targets[t]), to_json(y.targets[t]));
  }
  for (auto* table : {"targets", "variants", "samples", "telemetry", "checks"})
    EXPECT_EQ(rows(migrated_db, fmt::format("SELECT count(*) FROM {}", table), 1),
              rows(tmp.path / "fresh.db", fmt::format("SELECT count(*) FROM {}", table), 1)) << table;
  // The same schema either way (a new store runs every migration too).
  const std::string schema = "SELECT type, name, sql FROM sqlite_schema ORDER BY name";
  EXPECT_EQ(rows(migrated_db, schema, 3), rows(tmp.path / "fresh.db", schema, 3));
}

// v4 keeps each field once: the only stored columns are the ones no JSON holds.
TEST(StoreMigration, Version4StoresEachFieldOnce) {
  TempDir tmp;
  Store store = Store::open(tmp.path / "aisp.db");
  auto stored = [&](const char* table) {
    Rows r = rows(store.path(), fmt::format("SELECT name FROM pragma_table_xinfo('{}') WHERE hidden = 0", table), 1);
    std::vector<std::string> out;
    for (auto& x : r) out.push_back(x[0]);
    return out;
  };
  EXPECT_EQ(stored("runs"), (std::vector<std::string>{"id", "run_key", "run_dir", "complete", "results_schema",
                                                      "ingested_at", "manifest"}));
  EXPECT_EQ(stored("targets"), (std::vector<std::string>{"id", "run_id", "doc"}));
  EXPECT_EQ(stored("variants"), (std::vector<std::string>{"id", "target_row", "position", "median_low_ms",
                                                          "median_high_ms", "doc"}));
  EXPECT_EQ(rows(store.path(), "SELECT name, type FROM sqlite_schema WHERE name IN ('checks', 'manifests') ORDER BY 1", 2),
            (Rows{{"checks", "view"}, {"manifests", "view"}}));
  // The queries' index is over the generated target column.
  EXPECT_EQ(rows(store.path(), "SELECT count(*) FROM sqlite_schema WHERE name = 'targets_by_name'", 1), (Rows{{"1"}}));
}

// Each case breaks the v3 fixture in one way the migration must notice; it is refused and the store stays v3.
void expect_refused(const std::string& breakage, const std::string& message) {
  TempDir tmp;
  fs::path db = make_v3_store(tmp.path);
  {
    sql::Db d(db, SQLITE_OPEN_READWRITE);
    d.exec(breakage);
  }
  Rows variants = rows(db, "SELECT * FROM variants ORDER BY id", 20);
  try {
    Store::open(db);
    ADD_FAILURE() << "migrated after: " << breakage;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(rows(db, "PRAGMA user_version", 1), (Rows{{"3"}}));
  EXPECT_EQ(rows(db, "SELECT * FROM variants ORDER BY id", 20), variants);  // the v3 table, untouched
  EXPECT_EQ(rows(db, "SELECT type FROM sqlite_schema WHERE name = 'checks'", 1), (Rows{{"table"}}));
}

TEST(StoreMigration, RefusesWhenAColumnDisagreesWithItsJson) {
  // A hand-edited column: dropping it for the doc's value would change what history shows.
  expect_refused("UPDATE variants SET median_ms = median_ms * 2 WHERE id = 3",
                 "would change variants.median_ms of name 'baseline'");
  expect_refused("UPDATE runs SET hardware_key = 'b200' WHERE id = 2", "would change runs.hardware_key");
  expect_refused("DELETE FROM checks WHERE variant_id = 1 AND seq = 0", "check rows differ");
}

TEST(StoreMigration, RefusesADocThatIsNotJson) {
  expect_refused("UPDATE targets SET doc = '{\"target\": ' WHERE id = 2", "target row 2 is not valid JSON");
}

}  // namespace
}  // namespace aisp
