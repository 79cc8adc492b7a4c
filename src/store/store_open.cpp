// Opening the store: refuse anything that is not a healthy SQLite file (before writing a byte to it),
// then WAL + busy timeout, then the ordered schema migrations (foreign keys off), then foreign keys on.
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <thread>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "store/sqlite_db.hpp"
#include "store/store.hpp"
#include "store/store_migrations.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

// kMigrations[v] upgrades a database at user_version v to v + 1: an SQL script, or a function where a
// migration must check what it copies (store_migration_v4.cpp). Append only: a released migration is
// never edited, because databases in the field already ran it. A new store runs them all, in order.
struct Migration {
  const char* sql = nullptr;
  void (*run)(sql::Db&) = nullptr;
};

constexpr std::array<Migration, kStoreSchemaVersion> kMigrations = {{
    // v0 -> v1: runs and everything a results file holds.
    {R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,        -- the run directory's name
  stamp TEXT, label TEXT, kind TEXT, mode TEXT,
  started_at TEXT, ended_at TEXT, duration_s REAL,
  git_commit TEXT, git_branch TEXT, git_dirty INTEGER,
  hardware_key TEXT, gpu_model TEXT, gpu_uuid TEXT, driver_version TEXT, cuda_version TEXT,
  results_schema INTEGER, run_dir TEXT,
  ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;
CREATE TABLE manifests (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  json TEXT NOT NULL
) STRICT;
CREATE TABLE targets (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target TEXT NOT NULL, chapter TEXT, example TEXT, status TEXT, error TEXT, mode TEXT, goal TEXT,
  best_speedup REAL, best_optimization TEXT,
  doc TEXT NOT NULL,                   -- the target's JSON without its variants
  UNIQUE (run_id, target)
) STRICT;
CREATE TABLE variants (
  id INTEGER PRIMARY KEY,
  target_row INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,           -- 0 = baseline, then the optimizations in file order
  name TEXT NOT NULL, status TEXT, verdict TEXT, n INTEGER,
  median_ms REAL, median_low_ms REAL, median_high_ms REAL, mean_ms REAL, p90_ms REAL, rel_noise REAL,
  speedup REAL, ci_low REAL, ci_high REAL, p_value REAL, peak_memory_mb REAL, verified INTEGER,
  doc TEXT NOT NULL,                   -- the variant's JSON without its raw sample arrays
  UNIQUE (target_row, position)
) STRICT;
CREATE TABLE samples (
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,                  -- gpu | wall | audit
  seq INTEGER NOT NULL,
  value_ms REAL,
  PRIMARY KEY (variant_id, kind, seq)
) STRICT, WITHOUT ROWID;
CREATE TABLE checks (
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  check_id TEXT, name TEXT, passed INTEGER, detail TEXT,
  PRIMARY KEY (variant_id, seq)
) STRICT, WITHOUT ROWID;
)sql"},
    // v1 -> v2: telemetry, the completeness flag (runs stored before it were all finished ones), and an
    // index for history queries by target name.
    {R"sql(
ALTER TABLE runs ADD COLUMN complete INTEGER NOT NULL DEFAULT 1;
CREATE TABLE telemetry (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target TEXT NOT NULL DEFAULT '',     -- '' = run level (the manifest's hardware snapshot)
  variant TEXT NOT NULL DEFAULT '',
  metric TEXT NOT NULL,                -- sm_mhz, mem_mhz, temp_c, power_w, ...
  seq INTEGER NOT NULL,
  value REAL,
  PRIMARY KEY (run_id, target, variant, metric, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX targets_by_name ON targets(target, run_id);
)sql"},
    // v2 -> v3: profiles (`aisp profile ncu|sanitizer`, `bench run --profile`): one row per variant run
    // under a tool, its document, and the ncu metrics per kernel for queries. bench_run names the bench
    // run a profile was taken after ('' for a stand-alone profile); not a foreign key, so deleting or
    // re-ingesting a run never loses its profiles.
    {R"sql(
CREATE TABLE profiles (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  tool TEXT NOT NULL,                  -- ncu | compute-sanitizer
  preset TEXT NOT NULL DEFAULT '',     -- ncu: minimal | roofline | deep_dive; sanitizer: its tool
  target TEXT NOT NULL, variant TEXT NOT NULL,
  hardware_key TEXT, gpu_model TEXT,
  bench_run TEXT NOT NULL DEFAULT '',
  ok INTEGER NOT NULL,
  findings INTEGER,                    -- sanitizer errors; NULL for ncu
  dir TEXT,
  doc TEXT NOT NULL
) STRICT;
CREATE INDEX profiles_by_target ON profiles(target, variant, tool, id);
CREATE TABLE profile_metrics (
  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  kernel_seq INTEGER NOT NULL,
  kernel TEXT NOT NULL,
  metric TEXT NOT NULL,
  unit TEXT,
  value REAL,
  PRIMARY KEY (profile_id, kernel_seq, metric)
) STRICT, WITHOUT ROWID;
)sql"},
    // v3 -> v4: each run kept once: the JSON, with generated columns over it (store_migration_v4.cpp).
    {nullptr, migrate_v3_to_v4},
}};

[[noreturn]] void refuse(const fs::path& path, const std::string& why) {
  throw std::runtime_error(fmt::format("{}: {}; the file was left untouched (move it away to start a new store)",
                                       path.string(), why));
}

// SQLite happily "opens" any file and only fails on the first read; check the header ourselves so a
// results JSON passed as --db, or a half-copied file, is named as such. An empty file is a valid empty
// database to SQLite (and is what a concurrent first open briefly sees), so it passes.
void check_header(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) refuse(path, "not a regular file");
  auto size = fs::file_size(path, ec);
  if (ec) refuse(path, "cannot read its size: " + ec.message());
  if (size == 0) return;
  std::ifstream in(path, std::ios::binary);
  char head[16] = {};
  in.read(head, sizeof head);
  if (!in || std::string(head, 16) != std::string("SQLite format 3\0", 16))
    refuse(path, fmt::format("not an SQLite database ({} bytes, wrong header)", size));
  if (size < 512) refuse(path, fmt::format("truncated SQLite database ({} bytes)", size));
}

// Switching to WAL needs every other connection gone, and SQLite answers SQLITE_BUSY at once instead of
// consulting the busy handler, so two processes creating the store together would fail here. The mode is
// persistent: only a new file needs the switch, and retrying for the busy timeout's 10 s covers the race.
void set_wal(sql::Db& db) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (db.scalar_text("PRAGMA journal_mode") != "wal") {
    // OK also when the filesystem cannot do WAL (the mode stays as it was): then it runs without.
    if (sqlite3_exec(db.handle(), "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr) == SQLITE_OK) return;
    if ((sqlite3_errcode(db.handle()) & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
      db.fail("cannot switch to WAL mode");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// quick_check and the schema version, both read-only. Refuses a damaged file or a newer schema.
int64_t checked_version(sql::Db& db, const fs::path& path) {
  int64_t version = 0;
  std::string problem;
  try {
    std::vector<std::string> rows;
    sql::Statement qc(db, "PRAGMA quick_check(5)");
    while (qc.step()) rows.push_back(qc.text(0));
    if (!(rows.size() == 1 && rows[0] == "ok")) problem = fmt::format("failed PRAGMA quick_check: {}", fmt::join(rows, "; "));
    else version = db.scalar_int("PRAGMA user_version");
  } catch (const std::runtime_error&) {
    problem = fmt::format("unreadable as an SQLite database ({})", sqlite3_errmsg(db.handle()));
  }
  if (!problem.empty()) refuse(path, problem);
  if (version > kStoreSchemaVersion)
    refuse(path, fmt::format("schema version {} is newer than this aisp understands ({})", version, kStoreSchemaVersion));
  return version;
}

}  // namespace

Store::Store(std::unique_ptr<sql::Db> db) : db_(std::move(db)) {}
Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

const fs::path& Store::path() const { return db_->path(); }

int Store::schema_version() { return static_cast<int>(db_->scalar_int("PRAGMA user_version")); }

int64_t Store::data_version() { return db_->scalar_int("PRAGMA data_version"); }

Store Store::open(const fs::path& path, bool create) {
  std::error_code ec;
  bool exists = fs::exists(path, ec);
  if (exists) {
    check_header(path);
  } else if (!create) {
    throw std::runtime_error(fmt::format("no results store at {} (`aisp bench run` or `aisp bench ingest` creates it)",
                                         path.string()));
  } else if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create the directory for the store {}: {}", path.string(), ec.message()));
  }
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  auto db = std::make_unique<sql::Db>(path, flags);
  // Before anything that takes a lock, so every later step waits for a concurrent writer instead of failing.
  sqlite3_busy_timeout(db->handle(), 10000);

  // Read-only health checks first: nothing is written to a file that fails them.
  int64_t version = checked_version(*db, path);

  // WAL: readers never block the writer and two writers queue on the busy timeout. NORMAL sync is
  // crash-safe in WAL mode (a power cut may lose the last commit, never corrupt the file).
  set_wal(*db);
  db->exec("PRAGMA synchronous=NORMAL;");

  // Foreign keys stay off while migrating: a migration that rebuilds a table drops the old one, and with
  // them on that drop would cascade into its children. Migrations check the keys themselves.
  if (version < kStoreSchemaVersion) {
    sql::Transaction tx(*db);
    // Re-read under the write lock: another process may have migrated while we waited for it.
    version = db->scalar_int("PRAGMA user_version");
    for (int64_t v = version; v < kStoreSchemaVersion; ++v) {
      const Migration& m = kMigrations[static_cast<size_t>(v)];
      if (m.sql) db->exec(m.sql);
      if (m.run) m.run(*db);
    }
    if (version < kStoreSchemaVersion) db->exec(fmt::format("PRAGMA user_version = {}", kStoreSchemaVersion));
    tx.commit();
    // v4 rebuilt the run tables: until the old copies' pages are handed back the file is larger than
    // before. Once, best effort: a store busy with another writer keeps the pages, and later runs reuse them.
    if (version >= 1 && version < 4) sqlite3_exec(db->handle(), "VACUUM", nullptr, nullptr, nullptr);
  }
  db->exec("PRAGMA foreign_keys=ON;");
  return Store(std::move(db));
}

Store Store::open_read_only(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw std::runtime_error(fmt::format("no results store at {} (`aisp bench run` or `aisp bench ingest` creates it)",
                                         path.string()));
  check_header(path);
  auto db = std::make_unique<sql::Db>(path, SQLITE_OPEN_READONLY);
  // A writer holds the lock only for the instant of its commit (WAL); wait for it rather than fail a read.
  sqlite3_busy_timeout(db->handle(), 10000);
  int64_t version = checked_version(*db, path);
  if (version < kStoreSchemaVersion)
    refuse(path, fmt::format("schema version {} is older than this aisp's ({}) and a read-only open cannot migrate it "
                             "(any `aisp bench runs --db {}` upgrades it)",
                             version, kStoreSchemaVersion, path.string()));
  // Belt and braces: even a statement that slipped through would be refused by SQLite itself.
  db->exec("PRAGMA query_only=ON;");
  return Store(std::move(db));
}

}  // namespace aisp
