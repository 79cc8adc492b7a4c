// Ingest: a finished run directory -> rows, in one transaction. Every file is read and validated before
// the transaction starts, so a bad file costs nothing; a failure (or a kill) inside it rolls back.
#include <fmt/format.h>

#include <cmath>
#include <regex>
#include <stdexcept>

#include "core/file_names.hpp"
#include "core/json_io.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"

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

struct Telemetry {
  std::string target, variant, metric;
  std::vector<double> values;
};

// Numeric series found beside the samples (samples/<target>.json) or in a variant's "telemetry" object.
void collect_series(const json& obj, const std::string& target, const std::string& variant,
                    std::vector<Telemetry>& out, std::initializer_list<const char*> skip = {}) {
  for (auto& [key, val] : obj.items()) {
    bool skipped = false;
    for (auto* s : skip) skipped |= key == s;
    if (skipped) continue;
    Telemetry t{target, variant, key, {}};
    if (val.is_number()) t.values.push_back(val.get<double>());
    else if (val.is_array())
      for (auto& x : val)
        if (x.is_number()) t.values.push_back(x.get<double>());
    bool seen = false;  // the same series in the samples file and the results: keep the first
    for (auto& e : out) seen |= e.target == target && e.variant == variant && e.metric == key;
    if (!t.values.empty() && !seen) out.push_back(std::move(t));
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
  // Telemetry, where present: the manifest's hardware snapshot, per-sample series beside the samples,
  // and any "telemetry" object a variant carries.
  if (p.manifest.contains("hardware") && p.manifest["hardware"].is_object()) {
    json hw = p.manifest["hardware"];
    for (auto* k : {"gpu_clock_mhz", "gpu_clock_max_mhz", "memory_clock_mhz", "temperature_gpu_c", "power_limit_w"})
      if (hw.contains(k) && hw[k].is_number()) p.telemetry.push_back({"", "", k, {hw[k].get<double>()}});
  }
  for (size_t i = 0; i < p.targets.size(); ++i) {
    const std::string& id = p.targets[i].id;
    fs::path samples = p.dir / "samples" / (file_slug(id) + ".json");
    if (fs::exists(samples)) {
      json s = read_object(samples);
      for (auto& v : s.value("variants", json::array()))
        if (v.is_object()) collect_series(v, id, str_at(v, "name"), p.telemetry, {"name", "gpu_ms", "wall_ms", "discarded"});
    }
    const json& raw = p.raw_targets[i];
    std::vector<const json*> variants{&raw.at("baseline")};
    if (raw.contains("optimizations"))
      for (auto& o2 : raw["optimizations"]) variants.push_back(&o2);
    for (auto* v : variants)
      if (v->contains("telemetry") && (*v)["telemetry"].is_object())
        collect_series((*v)["telemetry"], id, str_at(*v, "name"), p.telemetry);
  }
  return p;
}

std::string stamp_of(const std::string& key) {
  static const std::regex re(R"(^(\d{8}_\d{6}).*)");
  std::smatch m;
  return std::regex_match(key, m, re) ? m[1].str() : std::string();
}

std::string label_of(const std::string& key) {
  auto pos = key.find("__bench__");
  return pos == std::string::npos ? key : key.substr(pos + 9);
}

}  // namespace

IngestOutcome Store::ingest_run(const fs::path& given, const IngestOptions& o) {
  Parsed p = parse_run(given, o);
  IngestOutcome out;
  RunInfo& r = out.run;
  r.key = p.dir.filename().string();
  r.stamp = stamp_of(r.key);
  r.label = label_of(r.key);
  r.kind = str_at(p.manifest, "kind");
  r.mode = str_at(p.manifest, "mode");
  r.started_at = str_at(p.manifest, "start_time");
  r.ended_at = str_at(p.manifest, "end_time");
  json git = p.manifest.value("git", json::object()), hw = p.manifest.value("hardware", json::object());
  if (!git.is_object()) git = json::object();
  if (!hw.is_object()) hw = json::object();
  r.git_commit = str_at(git, "commit");
  r.git_branch = str_at(git, "branch");
  auto dirty = git.find("dirty");  // absent or not a boolean: not known to be dirty (never a throw)
  r.git_dirty = dirty != git.end() && dirty->is_boolean() && dirty->get<bool>();
  r.hardware_key = str_at(hw, "hardware_key");
  r.gpu_model = str_at(hw, "gpu_model");
  r.complete = p.complete;
  r.targets = static_cast<int64_t>(p.targets.size());
  r.run_dir = p.dir.string();

  sql::Db& db = *db_;
  sql::Transaction tx(db);
  {
    sql::Statement existing(db, "SELECT id, started_at FROM runs WHERE run_key = ?");
    if (existing.bind(1, r.key).step()) {
      r.id = existing.int64(0);
      if (existing.text(1) != r.started_at)
        throw std::runtime_error(fmt::format("{}: a different run named '{}' is already in the store {} (started {}, "
                                             "this one {}); not ingested", p.dir.string(), r.key, db.path().string(),
                                             existing.text(1), r.started_at));
      out.message = fmt::format("{} is already in the store as run #{}; nothing to do", r.key, r.id);
      return out;  // the transaction rolls back: it wrote nothing
    }
  }
  sql::Statement run(db, R"(INSERT INTO runs (run_key, stamp, label, kind, mode, started_at, ended_at, duration_s,
      git_commit, git_branch, git_dirty, hardware_key, gpu_model, gpu_uuid, driver_version, cuda_version,
      results_schema, run_dir, complete) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?))");
  run.bind(1, r.key).bind(2, r.stamp).bind(3, r.label).bind(4, r.kind).bind(5, r.mode).bind(6, r.started_at);
  run.bind(7, r.ended_at).bind(8, p.manifest.value("duration_seconds", json(nullptr)).is_number()
                                      ? p.manifest["duration_seconds"].get<double>() : std::nan(""));
  run.bind(9, r.git_commit).bind(10, r.git_branch).bind(11, r.git_dirty).bind(12, r.hardware_key).bind(13, r.gpu_model);
  run.bind(14, str_at(hw, "gpu_uuid")).bind(15, str_at(hw, "driver_version")).bind(16, str_at(hw, "cuda_version"));
  run.bind(17, p.results.value("schema_version", json(0)).is_number() ? p.results["schema_version"].get<int64_t>() : 0);
  run.bind(18, r.run_dir).bind(19, r.complete).run();
  r.id = db.last_insert_id();
  sql::Statement(db, "INSERT INTO manifests (run_id, json) VALUES (?, ?)")
      .bind(1, r.id).bind(2, p.manifest.dump(-1, ' ', false, json::error_handler_t::replace)).run();

  sql::Statement target(db, R"(INSERT INTO targets (run_id, target, chapter, example, status, error, mode, goal,
      best_speedup, best_optimization, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?))");
  sql::Statement variant(db, R"(INSERT INTO variants (target_row, position, name, status, verdict, n, median_ms,
      median_low_ms, median_high_ms, mean_ms, p90_ms, rel_noise, speedup, ci_low, ci_high, p_value, peak_memory_mb,
      verified, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?))");
  sql::Statement sample(db, "INSERT INTO samples (variant_id, kind, seq, value_ms) VALUES (?,?,?,?)");
  sql::Statement check(db, "INSERT INTO checks (variant_id, seq, check_id, name, passed, detail) VALUES (?,?,?,?,?,?)");
  sql::Statement tele(db, "INSERT INTO telemetry (run_id, target, variant, metric, seq, value) VALUES (?,?,?,?,?,?)");
  auto insert_telemetry = [&](const Telemetry& t) {
    for (size_t i = 0; i < t.values.size(); ++i)
      tele.bind(1, r.id).bind(2, t.target).bind(3, t.variant).bind(4, t.metric).bind(5, static_cast<int64_t>(i))
          .bind(6, t.values[i]).run();
  };

  for (size_t ti = 0; ti < p.targets.size(); ++ti) {
    const TargetResult& t = p.targets[ti];
    json doc = p.raw_targets[ti];
    json raw_base = doc["baseline"];
    json raw_opts = doc.value("optimizations", json::array());
    doc.erase("baseline");
    doc.erase("optimizations");
    target.bind(1, r.id).bind(2, t.id).bind(3, t.chapter).bind(4, t.example).bind(5, t.status).bind(6, t.error)
        .bind(7, t.mode).bind(8, t.goal).bind(9, t.best_speedup).bind(10, t.best_optimization)
        .bind(11, doc.dump(-1, ' ', false, json::error_handler_t::replace)).run();
    int64_t target_row = db.last_insert_id();
    for (size_t vi = 0; vi <= t.optimizations.size(); ++vi) {
      const VariantResult& v = vi == 0 ? t.baseline : t.optimizations[vi - 1];
      const json& raw = vi == 0 ? raw_base : raw_opts.at(vi - 1);
      Interval mci = median_ci(v.samples_ms);
      variant.bind(1, target_row).bind(2, static_cast<int64_t>(vi)).bind(3, v.name).bind(4, v.status).bind(5, v.verdict)
          .bind(6, v.timing.n).bind(7, v.timing.median).bind(8, mci.low).bind(9, mci.high).bind(10, v.timing.mean)
          .bind(11, v.timing.p90).bind(12, v.timing.rel_noise).bind(13, v.speedup).bind(14, v.ci_low)
          .bind(15, v.ci_high).bind(16, v.p_value).bind(17, v.memory.peak_mb);
      if (v.verification) variant.bind(18, v.verification->passed);
      else variant.bind_null(18);
      variant.bind(19, without_arrays(raw).dump(-1, ' ', false, json::error_handler_t::replace)).run();
      int64_t variant_id = db.last_insert_id();
      auto put = [&](const char* kind, const std::vector<double>& values) {
        for (size_t i = 0; i < values.size(); ++i)
          sample.bind(1, variant_id).bind(2, kind).bind(3, static_cast<int64_t>(i)).bind(4, values[i]).run();
      };
      put("gpu", v.samples_ms);
      put("wall", v.wall_ms);
      put("audit", v.audit_samples_ms);
      for (size_t ci = 0; ci < v.checks.size(); ++ci)
        check.bind(1, variant_id).bind(2, static_cast<int64_t>(ci)).bind(3, v.checks[ci].id).bind(4, v.checks[ci].name)
            .bind(5, v.checks[ci].passed).bind(6, v.checks[ci].detail).run();
    }
    for (auto& tm : p.telemetry)
      if (tm.target == t.id) insert_telemetry(tm);
    if (o.on_target_inserted) o.on_target_inserted(t.id);
  }
  for (auto& tm : p.telemetry)
    if (tm.target.empty()) insert_telemetry(tm);
  tx.commit();
  out.inserted = true;
  out.message = fmt::format("stored {} ({} targets) in {} as run #{}", r.key, r.targets, db.path().string(), r.id);
  return out;
}

}  // namespace aisp
