// Ingest: a finished run directory -> rows, in one transaction. Every file is read and validated before
// the transaction starts, so a bad file costs nothing; a failure (or a kill) inside it rolls back.
#include <fmt/format.h>

#include <stdexcept>

#include "core/file_names.hpp"
#include "core/json_io.hpp"
#include "store/run_rows.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"
#include "store/telemetry_series.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

constexpr const char* kResultsFile = "results/benchmark_test_results.json";

// A run directory, or a file inside one (manifest.json, results/benchmark_test_results.json).
fs::path run_dir_of(const fs::path& given) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(given, ec);
  if (ec) p = given;
  if (fs::is_regular_file(p)) {
    if (p.filename() == "manifest.json") return p.parent_path();
    if (p.filename() == "benchmark_test_results.json" && p.parent_path().filename() == "results")
      return p.parent_path().parent_path();
  }
  if (!fs::is_directory(p))
    throw std::runtime_error(fmt::format("{}: not a run directory (expected artifacts/runs/<stamp>__bench__<label>/)",
                                         given.string()));
  return p;
}

json read_object(const fs::path& file) {
  json j = read_json(file);  // names the file on a missing file or a parse error (truncation included)
  if (!j.is_object()) throw std::runtime_error(fmt::format("{}: expected a JSON object", file.string()));
  return j;
}

std::string str_at(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Raw arrays are stored as rows in `samples`; the rest of the JSON is kept verbatim (unknown fields too).
json without_arrays(json v) {
  v.erase("raw_times_ms");
  v.erase("raw_wall_ms");
  if (v.contains("validity") && v["validity"].is_object()) v["validity"].erase("audit_samples_ms");
  return v;
}

// One series of samples/<target>.json, bound for the `telemetry` table.
struct Telemetry {
  std::string target, variant, metric;
  std::vector<double> values;
};

// The "telemetry" series of the first variant named `name` (baseline first): what the loader reads from
// the target's docs for that variant.
SeriesByMetric doc_series(const json& raw_target, const std::string& name) {
  if (str_at(raw_target.at("baseline"), "name") == name) return variant_telemetry(raw_target.at("baseline"));
  for (auto& o : raw_target.value("optimizations", json::array()))
    if (str_at(o, "name") == name) return variant_telemetry(o);
  return {};
}

// Telemetry the results JSON does not hold: numeric per-variant series in samples/<target>.json. The
// manifest's hardware snapshot and a variant's "telemetry" object stay in their JSON (the loader reads
// them there); a samples series equal to the variant's own is not stored twice, and of one series given
// twice the first is kept.
void collect_samples_series(const json& samples, const json& raw_target, const std::string& target,
                            std::vector<Telemetry>& out) {
  for (auto& v : samples.value("variants", json::array())) {
    if (!v.is_object()) continue;
    std::string name = str_at(v, "name");
    SeriesByMetric in_doc = doc_series(raw_target, name);
    for (auto& [metric, values] : numeric_series(v, {"name", "gpu_ms", "wall_ms", "discarded"})) {
      bool seen = false;
      for (auto& e : out) seen |= e.target == target && e.variant == name && e.metric == metric;
      auto doc = in_doc.find(metric);
      if (!seen && !(doc != in_doc.end() && doc->second == values)) out.push_back({target, name, metric, values});
    }
  }
}

struct Parsed {
  fs::path dir;
  json manifest, results;
  std::vector<json> raw_targets;
  std::vector<TargetResult> targets;
  std::vector<Telemetry> telemetry;
  bool complete = true;
};

Parsed parse_run(const fs::path& given, const IngestOptions& o) {
  Parsed p;
  p.dir = run_dir_of(given);
  p.manifest = read_object(p.dir / "manifest.json");
  fs::path results_file = p.dir / kResultsFile;
  p.results = read_object(results_file);
  try {
    for (auto& chapter : p.results.at("results"))
      for (auto& b : chapter.at("benchmarks")) {
        p.targets.push_back(target_from_json(b));
        p.raw_targets.push_back(b);
      }
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not a benchmark results file: {}", results_file.string(), e.what()));
  }
  // A run that did not finish is not a run the history should compare against.
  fs::path progress = p.dir / "progress" / "run_progress.json";
  std::string state = fs::exists(progress) ? str_at(read_object(progress), "state")
                                           : (p.manifest.contains("end_time") ? "finished" : "unfinished");
  p.complete = state == "finished";
  if (!p.complete && !o.allow_partial)
    throw std::runtime_error(fmt::format("{}: the run did not finish (state '{}'); not ingested, so the store never "
                                         "holds a partial run (--partial imports it anyway)", p.dir.string(), state));
  for (size_t i = 0; i < p.targets.size(); ++i) {
    fs::path samples = p.dir / "samples" / (file_slug(p.targets[i].id) + ".json");
    if (fs::exists(samples)) collect_samples_series(read_object(samples), p.raw_targets[i], p.targets[i].id, p.telemetry);
  }
  return p;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// One target: its doc (the JSON without its variants), each variant's doc (without the raw arrays) with the
// median's CI, the samples as rows. Columns over the docs are generated by SQLite (schema v4).
void insert_target(sql::Db& db, int64_t run_id, const TargetResult& t, json doc) {
  json raw_base = doc["baseline"];
  json raw_opts = doc.value("optimizations", json::array());
  doc.erase("baseline");
  doc.erase("optimizations");
  sql::Statement(db, "INSERT INTO targets (run_id, doc) VALUES (?, ?)").bind(1, run_id).bind(2, dump(doc)).run();
  int64_t target_row = db.last_insert_id();
  sql::Statement variant(db, "INSERT INTO variants (target_row, position, median_low_ms, median_high_ms, doc) "
                             "VALUES (?,?,?,?,?)");
  sql::Statement sample(db, "INSERT INTO samples (variant_id, kind, seq, value_ms) VALUES (?,?,?,?)");
  for (size_t vi = 0; vi <= t.optimizations.size(); ++vi) {
    const VariantResult& v = vi == 0 ? t.baseline : t.optimizations[vi - 1];
    const json& raw = vi == 0 ? raw_base : raw_opts.at(vi - 1);
    Interval mci = median_ci(v.samples_ms);
    variant.bind(1, target_row).bind(2, static_cast<int64_t>(vi)).bind(3, mci.low).bind(4, mci.high)
        .bind(5, dump(without_arrays(raw))).run();
    int64_t variant_id = db.last_insert_id();
    auto put = [&](const char* kind, const std::vector<double>& values) {
      for (size_t i = 0; i < values.size(); ++i)
        sample.bind(1, variant_id).bind(2, kind).bind(3, static_cast<int64_t>(i)).bind(4, values[i]).run();
    };
    put("gpu", v.samples_ms);
    put("wall", v.wall_ms);
    put("audit", v.audit_samples_ms);
  }
}

}  // namespace

IngestOutcome Store::ingest_run(const fs::path& given, const IngestOptions& o) {
  Parsed p = parse_run(given, o);
  IngestOutcome out;
  std::string key = p.dir.filename().string();
  sql::Db& db = *db_;
  sql::Transaction tx(db);
  {
    sql::Statement existing(db, "SELECT id, started_at FROM runs WHERE run_key = ?");
    if (existing.bind(1, key).step()) {
      out.run = run_row(db, existing.int64(0)).value();
      if (existing.text(1) != str_at(p.manifest, "start_time"))
        throw std::runtime_error(fmt::format("{}: a different run named '{}' is already in the store {} (started {}, "
                                             "this one {}); not ingested", p.dir.string(), key, db.path().string(),
                                             existing.text(1), str_at(p.manifest, "start_time")));
      out.message = fmt::format("{} is already in the store as run #{}; nothing to do", key, out.run.id);
      return out;  // the transaction rolls back: it wrote nothing
    }
  }
  // The manifest is the run's one copy: stamp, label, git, hardware ... are columns generated from it.
  sql::Statement run(db, "INSERT INTO runs (run_key, run_dir, complete, results_schema, manifest) VALUES (?,?,?,?,?)");
  run.bind(1, key).bind(2, p.dir.string()).bind(3, p.complete);
  run.bind(4, p.results.value("schema_version", json(0)).is_number() ? p.results["schema_version"].get<int64_t>() : 0);
  run.bind(5, dump(p.manifest)).run();
  int64_t run_id = db.last_insert_id();

  sql::Statement tele(db, "INSERT INTO telemetry (run_id, target, variant, metric, seq, value) VALUES (?,?,?,?,?,?)");
  for (size_t ti = 0; ti < p.targets.size(); ++ti) {
    const TargetResult& t = p.targets[ti];
    insert_target(db, run_id, t, p.raw_targets[ti]);
    for (auto& tm : p.telemetry)
      if (tm.target == t.id)
        for (size_t i = 0; i < tm.values.size(); ++i)
          tele.bind(1, run_id).bind(2, tm.target).bind(3, tm.variant).bind(4, tm.metric).bind(5, static_cast<int64_t>(i))
              .bind(6, tm.values[i]).run();
    if (o.on_target_inserted) o.on_target_inserted(t.id);
  }
  out.run = run_row(db, run_id).value();
  tx.commit();
  out.inserted = true;
  out.message = fmt::format("stored {} ({} targets) in {} as run #{}", key, out.run.targets, db.path().string(), run_id);
  return out;
}

}  // namespace aisp
