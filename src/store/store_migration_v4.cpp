// v3 -> v4: each run kept once. Up to v3 a run was stored twice: the manifest and every target and variant
// as JSON, and again as columns (runs, targets, variants), the `checks` table and `telemetry` rows copied
// out of the same JSON. From v4 the JSON is the one copy: the columns that queries and indexes use are
// VIRTUAL generated columns over it (no bytes on disk; an index stores its own key), `checks` and
// `manifests` are views, and `telemetry` keeps only what no JSON holds (samples/<target>.json series).
// Real columns stay only for facts that are in no file: the row ids and positions, where and when the
// run was ingested, its completeness, and the median's CI computed from the samples at ingest.
//
// SQLite cannot drop a column used by an index or a UNIQUE constraint, so the three tables are rebuilt
// (SQLite's documented 12-step procedure, with foreign keys off so dropping a parent cascades nothing),
// and before the old tables are dropped every old column is compared with its generated replacement:
// any difference aborts the migration and leaves the store as it was.
#include <fmt/format.h>

#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "store/sqlite_db.hpp"
#include "store/store_migrations.hpp"
#include "store/telemetry_series.hpp"

namespace aisp {
namespace {

// Text columns read a JSON string and are '' otherwise, numbers default as result.cpp's readers do, so a
// column holds what the ingest of v1-v3 bound from the parsed result.
constexpr const char* kBuildV4 = R"sql(
CREATE TABLE runs_v4 (
  id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,        -- the run directory's name
  run_dir TEXT,                        -- where it was ingested from
  complete INTEGER NOT NULL DEFAULT 1, -- 0 = imported with --partial
  results_schema INTEGER,              -- the results file's schema_version
  ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  manifest TEXT NOT NULL,              -- the whole manifest.json; the columns below read it
  stamp TEXT GENERATED ALWAYS AS (iif(run_key GLOB
    '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]_[0-9][0-9][0-9][0-9][0-9][0-9]*', substr(run_key, 1, 15), '')) VIRTUAL,
  label TEXT GENERATED ALWAYS AS (iif(instr(run_key, '__bench__') > 0,
    substr(run_key, instr(run_key, '__bench__') + 9), run_key)) VIRTUAL,
  kind TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.kind') = 'text', json_extract(manifest, '$.kind'), '')) VIRTUAL,
  mode TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.mode') = 'text', json_extract(manifest, '$.mode'), '')) VIRTUAL,
  started_at TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.start_time') = 'text',
    json_extract(manifest, '$.start_time'), '')) VIRTUAL,
  ended_at TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.end_time') = 'text',
    json_extract(manifest, '$.end_time'), '')) VIRTUAL,
  duration_s REAL GENERATED ALWAYS AS (iif(json_type(manifest, '$.duration_seconds') IN ('integer', 'real'),
    json_extract(manifest, '$.duration_seconds'), NULL)) VIRTUAL,
  git_commit TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.git.commit') = 'text',
    json_extract(manifest, '$.git.commit'), '')) VIRTUAL,
  git_branch TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.git.branch') = 'text',
    json_extract(manifest, '$.git.branch'), '')) VIRTUAL,
  git_dirty INTEGER GENERATED ALWAYS AS (coalesce(json_type(manifest, '$.git.dirty') = 'true', 0)) VIRTUAL,
  hardware_key TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.hardware.hardware_key') = 'text',
    json_extract(manifest, '$.hardware.hardware_key'), '')) VIRTUAL,
  gpu_model TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.hardware.gpu_model') = 'text',
    json_extract(manifest, '$.hardware.gpu_model'), '')) VIRTUAL,
  gpu_uuid TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.hardware.gpu_uuid') = 'text',
    json_extract(manifest, '$.hardware.gpu_uuid'), '')) VIRTUAL,
  driver_version TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.hardware.driver_version') = 'text',
    json_extract(manifest, '$.hardware.driver_version'), '')) VIRTUAL,
  cuda_version TEXT GENERATED ALWAYS AS (iif(json_type(manifest, '$.hardware.cuda_version') = 'text',
    json_extract(manifest, '$.hardware.cuda_version'), '')) VIRTUAL
) STRICT;
CREATE TABLE targets_v4 (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  doc TEXT NOT NULL,                   -- the target's JSON without its variants
  target TEXT NOT NULL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.target'), '')) VIRTUAL,
  chapter TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.chapter'), '')) VIRTUAL,
  example TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.example'), '')) VIRTUAL,
  status TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.status'), '')) VIRTUAL,
  error TEXT GENERATED ALWAYS AS (iif(json_type(doc, '$.error') = 'text', json_extract(doc, '$.error'), '')) VIRTUAL,
  mode TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.mode'), '')) VIRTUAL,
  goal TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.optimization_goal'), 'speed')) VIRTUAL,
  best_speedup REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.best_speedup'), 0.0)) VIRTUAL,
  best_optimization TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.best_optimization'), '')) VIRTUAL,
  UNIQUE (run_id, target)
) STRICT;
CREATE TABLE variants_v4 (
  id INTEGER PRIMARY KEY,
  target_row INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,           -- 0 = baseline, then the optimizations in file order
  median_low_ms REAL,                  -- 95% CI of the median from the samples' order statistics: computed
  median_high_ms REAL,                 -- at ingest, in no file
  doc TEXT NOT NULL,                   -- the variant's JSON without its raw sample arrays
  name TEXT NOT NULL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.name'), '')) VIRTUAL,
  status TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.status'), '')) VIRTUAL,
  verdict TEXT GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.verdict'), '')) VIRTUAL,
  n INTEGER GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.timing.iterations'), 0)) VIRTUAL,
  median_ms REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.timing.median_ms'), 0.0)) VIRTUAL,
  mean_ms REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.timing.mean_ms'), 0.0)) VIRTUAL,
  p90_ms REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.timing.p90_ms'), 0.0)) VIRTUAL,
  rel_noise REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.timing.rel_noise'), 0.0)) VIRTUAL,
  speedup REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.speedup'), 0.0)) VIRTUAL,
  ci_low REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.ci_low'), 0.0)) VIRTUAL,
  ci_high REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.ci_high'), 0.0)) VIRTUAL,
  p_value REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.p_value'), 1.0)) VIRTUAL,
  peak_memory_mb REAL GENERATED ALWAYS AS (coalesce(json_extract(doc, '$.memory.peak_mb'), 0.0)) VIRTUAL,
  verified INTEGER GENERATED ALWAYS AS (iif(json_type(doc, '$.verification') = 'object',
    coalesce(json_extract(doc, '$.verification.passed'), 0), NULL)) VIRTUAL,
  UNIQUE (target_row, position)
) STRICT;
)sql";

// A v3 run without a manifest row cannot come from `aisp bench ingest` (both are inserted in one
// transaction), but a hand-made file may have one: its columns become the manifest, so nothing is lost.
constexpr const char* kCopyV4 = R"sql(
INSERT INTO runs_v4 (id, run_key, run_dir, complete, results_schema, ingested_at, manifest)
  SELECT r.id, r.run_key, r.run_dir, r.complete, r.results_schema, r.ingested_at, coalesce(m.json, json_object(
    'kind', r.kind, 'mode', r.mode, 'start_time', r.started_at, 'end_time', r.ended_at,
    'duration_seconds', r.duration_s,
    'git', json_object('commit', r.git_commit, 'branch', r.git_branch, 'dirty', json(iif(r.git_dirty, 'true', 'false'))),
    'hardware', json_object('hardware_key', r.hardware_key, 'gpu_model', r.gpu_model, 'gpu_uuid', r.gpu_uuid,
                            'driver_version', r.driver_version, 'cuda_version', r.cuda_version)))
  FROM runs r LEFT JOIN manifests m ON m.run_id = r.id;
INSERT INTO targets_v4 (id, run_id, doc) SELECT id, run_id, doc FROM targets;
INSERT INTO variants_v4 (id, target_row, position, median_low_ms, median_high_ms, doc)
  SELECT id, target_row, position, median_low_ms, median_high_ms, doc FROM variants;
)sql";

constexpr const char* kSwapV4 = R"sql(
DROP TABLE checks;
DROP TABLE manifests;
DROP TABLE variants;
DROP TABLE targets;
DROP TABLE runs;
ALTER TABLE runs_v4 RENAME TO runs;
ALTER TABLE targets_v4 RENAME TO targets;
ALTER TABLE variants_v4 RENAME TO variants;
CREATE INDEX targets_by_name ON targets(target, run_id);
CREATE VIEW manifests (run_id, json) AS SELECT id, manifest FROM runs;
CREATE VIEW checks (variant_id, seq, check_id, name, passed, detail) AS
  SELECT v.id, c.key, json_extract(c.value, '$.id'), json_extract(c.value, '$.name'),
         json_extract(c.value, '$.passed'), json_extract(c.value, '$.detail')
  FROM variants v, json_each(v.doc, '$.checks') c;
)sql";

enum class Kind { text, integer, nullable, real };
struct Column {
  const char* name;
  Kind kind;
};

// SQL that is true where the old column `o.<name>` held a value that its generated replacement `n.<name>`
// does not give. NULL in an old column recorded nothing (a row written by hand, not by ingest), so filling
// it in loses nothing; `nullable` columns, where NULL means something ("not verified"), must match exactly.
// Reals allow 1e-12 relative: SQLite's JSON number parser may round the last bit differently from the one
// that bound the column.
std::string differs(const Column& c) {
  switch (c.kind) {
    case Kind::text: return fmt::format("o.{0} IS NOT NULL AND o.{0} != coalesce(n.{0}, '')", c.name);
    case Kind::integer: return fmt::format("o.{0} IS NOT NULL AND o.{0} != coalesce(n.{0}, 0)", c.name);
    case Kind::nullable: return fmt::format("o.{0} IS NOT n.{0}", c.name);
    case Kind::real:
      return fmt::format("o.{0} IS NOT NULL AND NOT coalesce(abs(o.{0} - n.{0}) <= 1e-12 * abs(o.{0}), 0)", c.name);
  }
  return "1";
}

// Throws (rolling the migration back) when a v3 table and its v4 rebuild differ in rows or in any column.
void expect_same(sql::Db& db, const std::string& table, const std::string& key, const std::vector<Column>& columns) {
  int64_t old_rows = db.scalar_int("SELECT count(*) FROM " + table);
  int64_t new_rows = db.scalar_int("SELECT count(*) FROM " + table + "_v4");
  if (old_rows != new_rows)
    db.fail(fmt::format("migration to schema 4: {} has {} rows, its rebuild {}", table, old_rows, new_rows));
  for (const Column& c : columns) {
    sql::Statement st(db, fmt::format("SELECT o.{0} FROM {1} o JOIN {1}_v4 n USING (id) WHERE {2} LIMIT 1", key,
                                      table, differs(c)));
    if (st.step())
      throw std::runtime_error(fmt::format("store {}: migration to schema 4 would change {}.{} of {} '{}'; nothing "
                                           "was changed", db.path().string(), table, c.name, key, st.text(0)));
  }
}

// Generated columns parse the JSON on every read (and an index on insert): text that is not JSON would
// fail the copy and every later query, so it is named before anything is built.
void expect_json(sql::Db& db) {
  for (auto* q : {"SELECT 'manifest of run ' || run_id FROM manifests WHERE NOT json_valid(json)",
                  "SELECT 'target row ' || id FROM targets WHERE NOT json_valid(doc)",
                  "SELECT 'variant row ' || id FROM variants WHERE NOT json_valid(doc)"}) {
    sql::Statement st(db, q);
    if (st.step())
      throw std::runtime_error(fmt::format("store {}: cannot migrate to schema 4: the {} is not valid JSON; nothing "
                                           "was changed", db.path().string(), st.text(0)));
  }
}

void verify_rebuild(sql::Db& db) {
  auto t = Kind::text, i = Kind::integer, r = Kind::real;
  expect_same(db, "runs", "run_key",
              {{"stamp", t}, {"label", t}, {"kind", t}, {"mode", t}, {"started_at", t}, {"ended_at", t},
               {"duration_s", r}, {"git_commit", t}, {"git_branch", t}, {"git_dirty", i}, {"hardware_key", t},
               {"gpu_model", t}, {"gpu_uuid", t}, {"driver_version", t}, {"cuda_version", t}, {"run_dir", t},
               {"complete", i}, {"results_schema", Kind::nullable}, {"ingested_at", t}});
  expect_same(db, "targets", "target",
              {{"run_id", i}, {"target", t}, {"chapter", t}, {"example", t}, {"status", t}, {"error", t},
               {"mode", t}, {"goal", t}, {"best_speedup", r}, {"best_optimization", t}});
  expect_same(db, "variants", "name",
              {{"target_row", i}, {"position", i}, {"name", t}, {"status", t}, {"verdict", t}, {"n", i},
               {"median_ms", r}, {"median_low_ms", r}, {"median_high_ms", r}, {"mean_ms", r}, {"p90_ms", r},
               {"rel_noise", r}, {"speedup", r}, {"ci_low", r}, {"ci_high", r}, {"p_value", r},
               {"peak_memory_mb", r}, {"verified", Kind::nullable}});
  // The checks rows against the variants' "checks" arrays, both ways.
  constexpr const char* kFromDocs =
      "SELECT v.id, c.key, coalesce(json_extract(c.value, '$.id'), ''), coalesce(json_extract(c.value, '$.name'), ''), "
      "coalesce(json_extract(c.value, '$.passed'), 0), coalesce(json_extract(c.value, '$.detail'), '') "
      "FROM variants_v4 v, json_each(v.doc, '$.checks') c";
  constexpr const char* kFromTable =
      "SELECT variant_id, seq, coalesce(check_id, ''), coalesce(name, ''), coalesce(passed, 0), coalesce(detail, '') "
      "FROM checks";
  int64_t diff = db.scalar_int(fmt::format("SELECT (SELECT count(*) FROM ({0} EXCEPT {1})) + "
                                           "(SELECT count(*) FROM ({1} EXCEPT {0}))", kFromTable, kFromDocs));
  if (diff != 0)
    throw std::runtime_error(fmt::format("store {}: migration to schema 4: {} check rows differ from the variants' "
                                         "\"checks\"; nothing was changed", db.path().string(), diff));
}

// Telemetry rows the JSON already holds: the run-level rows are the manifest's hardware snapshot, and a
// variant's series equal to its doc's "telemetry" entry come back from the doc on load. A series that
// differs (samples/<target>.json had its own) stays: the loader reads the table first, as ingest did.
void drop_telemetry_held_in_json(sql::Db& db) {
  sql::Statement runs(db, "SELECT id, manifest FROM runs");
  sql::Statement del_run(db, "DELETE FROM telemetry WHERE run_id = ? AND target = '' AND variant = '' AND metric = ? "
                             "AND seq = 0 AND value = ?");
  // SQLite's json_valid accepted every document; one nlohmann cannot read (invalid UTF-8 in a hand-edited
  // file) keeps its rows, which only costs space.
  auto parse = [](const std::string& text) { return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false); };
  while (runs.step()) {
    nlohmann::json manifest = parse(runs.text(1));
    if (!manifest.is_object() || !manifest.contains("hardware")) continue;
    for (auto& [metric, values] : numeric_series(manifest["hardware"]))
      if (values.size() == 1) del_run.bind(1, runs.int64(0)).bind(2, metric).bind(3, values[0]).run();
  }
  sql::Statement variants(db, "SELECT t.run_id, t.target, v.name, v.doc FROM variants v JOIN targets t "
                              "ON t.id = v.target_row ORDER BY t.run_id, t.id, v.position");
  sql::Statement series(db, "SELECT value FROM telemetry WHERE run_id = ?1 AND target = ?2 AND variant = ?3 "
                            "AND metric = ?4 ORDER BY seq");
  sql::Statement del(db, "DELETE FROM telemetry WHERE run_id = ?1 AND target = ?2 AND variant = ?3 AND metric = ?4");
  // Of two variants with one name only the first is compared: the loader prefers its series.
  std::set<std::tuple<int64_t, std::string, std::string>> seen;
  while (variants.step()) {
    if (!seen.emplace(variants.int64(0), variants.text(1), variants.text(2)).second) continue;
    for (auto& [metric, values] : variant_telemetry(parse(variants.text(3)))) {
      series.bind(1, variants.int64(0)).bind(2, variants.text(1)).bind(3, variants.text(2)).bind(4, metric);
      std::vector<double> stored;
      while (series.step()) stored.push_back(series.real(0));
      series.reset();
      if (stored == values) del.bind(1, variants.int64(0)).bind(2, variants.text(1)).bind(3, variants.text(2)).bind(4, metric).run();
    }
  }
}

}  // namespace

void migrate_v3_to_v4(sql::Db& db) {
  expect_json(db);
  db.exec(kBuildV4);
  db.exec(kCopyV4);
  verify_rebuild(db);
  db.exec(kSwapV4);
  drop_telemetry_held_in_json(db);
  sql::Statement fk(db, "PRAGMA foreign_key_check");
  if (fk.step())
    throw std::runtime_error(fmt::format("store {}: migration to schema 4 leaves a row of {} without its parent; "
                                         "nothing was changed", db.path().string(), fk.text(0)));
}

}  // namespace aisp
