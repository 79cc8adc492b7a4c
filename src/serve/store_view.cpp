#include "serve/store_view.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "serve/api_params.hpp"

namespace aisp::serve {

std::unique_ptr<StoreView::Connection> StoreView::connect() const {
  return std::make_unique<Connection>(Connection{Store::open_read_only(path_)});
}

StoreView::StoreView(const std::filesystem::path& db, size_t cache_runs, size_t connections)
    : path_(db), cache_runs_(cache_runs) {
  for (size_t i = 0; i < std::max<size_t>(connections, 1); ++i) {
    all_.push_back(connect());
    free_.push_back(all_.back().get());
  }
  version_store_ = std::make_unique<Store>(Store::open_read_only(db));
}

StoreView::~StoreView() = default;

StoreView::Lease StoreView::borrow() {
  std::unique_lock lock(pool_mutex_);
  pool_cv_.wait(lock, [&] { return !free_.empty(); });
  Connection* c = free_.back();
  free_.pop_back();
  return Lease(*this, c);
}

StoreView::Lease::~Lease() {
  {
    std::lock_guard lock(view_.pool_mutex_);
    view_.free_.push_back(c_);
  }
  view_.pool_cv_.notify_one();
}

std::string StoreView::version() {
  int64_t data_version = 0;
  {
    std::lock_guard lock(version_mutex_);
    data_version = version_store_->data_version();
  }
  struct stat db{}, wal{};
  ::stat(path_.c_str(), &db);
  ::stat((path_.string() + "-wal").c_str(), &wal);
  return std::to_string(data_version) + ' ' + std::to_string(db.st_ino) + ' ' + std::to_string(db.st_size) + ' ' +
         std::to_string(db.st_mtim.tv_sec) + '.' + std::to_string(db.st_mtim.tv_nsec) + ' ' + std::to_string(wal.st_size);
}

std::vector<RunInfo> StoreView::runs() {
  auto c = borrow();
  return c->store.list_runs();
}

RunInfo StoreView::resolve(const std::string& spec) {
  auto c = borrow();
  try {
    return c->store.resolve_run(spec);
  } catch (const std::runtime_error& e) {
    std::string m = e.what();
    throw ApiError(m.find("ambiguous") != std::string::npos ? 400 : 404, m);
  }
}

std::shared_ptr<const analysis::RunData> StoreView::run(const RunInfo& info) {
  {
    std::lock_guard lock(cache_mutex_);
    if (auto it = cache_.find(info.id); it != cache_.end() && it->second->key == info.key) return it->second;
  }
  std::shared_ptr<const analysis::RunData> r;
  {
    auto c = borrow();
    r = std::make_shared<const analysis::RunData>(analysis::run_data_of(c->store.load_stored_run(info)));
  }
  // Two requests may have loaded the same run at once: either copy is the run; the last one is kept.
  std::lock_guard lock(cache_mutex_);
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
  auto c = borrow();
  return c->store.target_ids();
}

std::vector<StoreView::Latest> StoreView::latest_results() {
  auto c = borrow();
  return c->store.latest_results();
}

std::vector<HistoryRow> StoreView::history(const std::string& target, const std::string& hardware_key) {
  auto c = borrow();
  return c->store.history(target, hardware_key);
}

std::vector<CompareRow> StoreView::compare(const RunInfo& baseline, const RunInfo& candidate) {
  std::string key = std::to_string(baseline.id) + ' ' + baseline.key + ' ' + std::to_string(candidate.id) + ' ' + candidate.key;
  {
    std::lock_guard lock(cache_mutex_);
    if (auto it = compare_cache_.find(key); it != compare_cache_.end()) return it->second;
  }
  std::vector<CompareRow> rows;
  {
    auto c = borrow();
    rows = c->store.compare_runs(baseline.id, candidate.id);
  }
  std::lock_guard lock(cache_mutex_);
  if (!compare_cache_.count(key)) {
    compare_cache_[key] = rows;
    compare_order_.push_back(key);
  }
  while (compare_order_.size() > cache_runs_) {
    compare_cache_.erase(compare_order_.front());
    compare_order_.pop_front();
  }
  return rows;
}

}  // namespace aisp::serve
