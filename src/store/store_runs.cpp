// Whole runs for their readers: the analyses (src/analysis/dataset.cpp) and the dashboard
// (src/serve/store_view.cpp) both load runs here, so the SQL over the manifest and `telemetry` lives in
// one place and a reader gets typed structs, never rows.
#include <fmt/format.h>

#include <algorithm>

#include "store/sqlite_db.hpp"
#include "store/store.hpp"
#include "store/telemetry_series.hpp"

namespace aisp {

bool is_calibration(const std::string& label, const std::string& run_key) {
  return label.rfind("calibrate", 0) == 0 || run_key.find("__calibrate") != std::string::npos;
}

bool is_calibration(const RunInfo& r) { return is_calibration(r.label, r.key); }

RunFilter earlier_like(const RunInfo& run, size_t newest) {
  RunFilter f;
  f.hardware_key = run.hardware_key;
  f.mode = run.mode;
  f.complete_only = true;
  f.skip_calibration = true;
  f.before_run = run.id;
  f.newest = newest;
  return f;
}

std::vector<RunInfo> filter_runs(const std::vector<RunInfo>& runs, const RunFilter& f) {
  std::vector<RunInfo> out;
  for (auto& r : runs) {
    if (f.before_run && r.id == *f.before_run) break;
    if (f.hardware_key && r.hardware_key != *f.hardware_key) continue;
    if (f.mode && r.mode != *f.mode) continue;
    if (f.complete_only && !r.complete) continue;
    if (f.skip_calibration && is_calibration(r)) continue;
    out.push_back(r);
  }
  if (f.newest && out.size() > *f.newest) out.erase(out.begin(), out.end() - static_cast<long>(*f.newest));
  return out;
}

std::vector<RunInfo> Store::find_runs(const RunFilter& f) { return filter_runs(list_runs(), f); }

StoredRun Store::load_stored_run(const RunInfo& info) {
  StoredRun r;
  r.info = info;
  r.targets = load_run(info.id);
  sql::Statement m(*db_, "SELECT manifest FROM runs WHERE id = ?");
  m.bind(1, info.id);
  if (m.step()) r.manifest = nlohmann::json::parse(m.text(0), nullptr, /*allow_exceptions=*/false);
  if (r.manifest.is_discarded()) r.manifest = nullptr;
  // Telemetry lives in two places, each series once: the table holds what only samples/<target>.json
  // had, the variants' docs their "telemetry" objects. The table's series wins where both name one (as
  // ingest kept the samples file's), and of two variants with one name the first.
  sql::Statement tel(*db_, "SELECT target, variant, metric, value FROM telemetry WHERE run_id = ? AND target != '' "
                           "ORDER BY target, variant, metric, seq");
  tel.bind(1, info.id);
  while (tel.step())
    if (!tel.is_null(3)) r.telemetry[tel.text(0)][tel.text(1)][tel.text(2)].push_back(tel.real(3));
  for (const TargetResult& t : r.targets) {
    std::vector<const VariantResult*> variants{&t.baseline};
    for (auto& o : t.optimizations) variants.push_back(&o);
    for (const VariantResult* v : variants)
      for (auto& [metric, values] : numeric_series(v->telemetry)) r.telemetry[t.id][v->name].emplace(metric, values);
  }
  return r;
}

std::vector<StoredRun> Store::load_runs(const RunFilter& filter) {
  std::vector<StoredRun> out;
  for (auto& r : find_runs(filter)) out.push_back(load_stored_run(r));
  return out;
}

std::vector<LatestResult> Store::latest_results() {
  // Same chronological order as list_runs (stamp, then id); the last row per key wins.
  sql::Statement st(*db_, "SELECT t.target, coalesce(r.hardware_key, ''), r.id, coalesce(r.label, ''), r.run_key "
                          "FROM targets t JOIN runs r ON r.id = t.run_id ORDER BY coalesce(r.stamp, ''), r.id");
  std::map<std::pair<std::string, std::string>, int64_t> latest;
  while (st.step())
    if (!is_calibration(st.text(3), st.text(4))) latest[{st.text(0), st.text(1)}] = st.int64(2);
  std::vector<LatestResult> out;
  for (auto& [key, id] : latest) out.push_back({key.first, key.second, id});
  return out;
}

}  // namespace aisp
