#include "serve/store_view.hpp"

#include <sqlite3.h>

#include "serve/api_params.hpp"
#include "store/sqlite_db.hpp"

namespace aisp::serve {

bool is_calibration(const std::string& label, const std::string& run_key) {
  return label.rfind("calibrate", 0) == 0 || run_key.find("__calibrate") != std::string::npos;
}

bool is_calibration(const RunInfo& r) { return is_calibration(r.label, r.key); }

StoreView::StoreView(const std::filesystem::path& db, size_t cache_runs)
    : path_(db), store_(Store::open_read_only(db)), raw_(std::make_unique<sql::Db>(db, SQLITE_OPEN_READONLY)),
      cache_runs_(cache_runs) {
  raw_->exec("PRAGMA query_only=ON;");
  sqlite3_busy_timeout(raw_->handle(), 10000);
}

StoreView::~StoreView() = default;

std::vector<RunInfo> StoreView::runs() {
  std::lock_guard lock(mutex_);
  return store_.list_runs();
}

RunInfo StoreView::resolve(const std::string& spec) {
  std::lock_guard lock(mutex_);
  try {
    return store_.resolve_run(spec);
  } catch (const std::runtime_error& e) {
    std::string m = e.what();
    throw ApiError(m.find("ambiguous") != std::string::npos ? 400 : 404, m);
  }
}

std::shared_ptr<const analysis::RunData> StoreView::run(const RunInfo& info) {
  std::lock_guard lock(mutex_);
  if (auto it = cache_.find(info.id); it != cache_.end() && it->second->key == info.key) return it->second;

  auto r = std::make_shared<analysis::RunData>();
  r->id = info.id;
  r->key = info.key;
  r->stamp = info.stamp;
  r->label = info.label;
  r->mode = info.mode;
  r->git_commit = info.git_commit;
  r->hardware_key = info.hardware_key;
  r->gpu_model = info.gpu_model;
  r->targets = store_.load_run(info.id);
  sql::Statement m(*raw_, "SELECT json FROM manifests WHERE run_id = ?");
  m.bind(1, info.id);
  if (m.step()) r->manifest = json::parse(m.text(0), nullptr, /*allow_exceptions=*/false);
  if (r->manifest.is_discarded()) r->manifest = nullptr;
  // Run-level rows (target '') are the manifest's hardware snapshot, already in `manifest`.
  sql::Statement tel(*raw_, "SELECT target, variant, metric, value FROM telemetry WHERE run_id = ? AND target != '' "
                            "ORDER BY target, variant, metric, seq");
  tel.bind(1, info.id);
  while (tel.step())
    if (!tel.is_null(3)) r->telemetry[tel.text(0)][tel.text(1)][tel.text(2)].push_back(tel.real(3));

  if (cache_.erase(info.id)) cache_order_.erase(std::find(cache_order_.begin(), cache_order_.end(), info.id));
  cache_[info.id] = r;
  cache_order_.push_back(info.id);
  while (cache_order_.size() > cache_runs_) {
    cache_.erase(cache_order_.front());
    cache_order_.pop_front();
  }
  return r;
}

std::vector<std::string> StoreView::target_ids() {
  std::lock_guard lock(mutex_);
  return store_.target_ids();
}

std::vector<StoreView::Latest> StoreView::latest_results() {
  std::lock_guard lock(mutex_);
  // Same chronological order as Store::list_runs (stamp, then id); the last row per key wins.
  sql::Statement st(*raw_, "SELECT t.target, coalesce(r.hardware_key, ''), r.id, coalesce(r.label, ''), r.run_key "
                           "FROM targets t JOIN runs r ON r.id = t.run_id ORDER BY coalesce(r.stamp, ''), r.id");
  std::map<std::pair<std::string, std::string>, int64_t> latest;
  while (st.step())
    if (!is_calibration(st.text(3), st.text(4))) latest[{st.text(0), st.text(1)}] = st.int64(2);
  std::vector<Latest> out;
  for (auto& [key, id] : latest) out.push_back({key.first, key.second, id});
  return out;
}

std::vector<HistoryRow> StoreView::history(const std::string& target, const std::string& hardware_key) {
  std::lock_guard lock(mutex_);
  return store_.history(target, hardware_key);
}

std::vector<CompareRow> StoreView::compare(const RunInfo& baseline, const RunInfo& candidate) {
  std::lock_guard lock(mutex_);
  std::string key = std::to_string(baseline.id) + ' ' + baseline.key + ' ' + std::to_string(candidate.id) + ' ' + candidate.key;
  if (auto it = compare_cache_.find(key); it != compare_cache_.end()) return it->second;
  auto rows = store_.compare_runs(baseline.id, candidate.id);
  compare_cache_[key] = rows;
  compare_order_.push_back(key);
  while (compare_order_.size() > cache_runs_) {
    compare_cache_.erase(compare_order_.front());
    compare_order_.pop_front();
  }
  return rows;
}

}  // namespace aisp::serve
