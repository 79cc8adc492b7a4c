// The dashboard's read-only window on the results store, shared by every request thread.
//  - A small pool of read-only connections (Store::open_read_only, 4 by default): a request borrows one
//    for its queries, so a slow query (a first comparison's bootstrap, ~0.2 s) does not hold up the rest.
//    One connection under one mutex served 150-200 requests/s at 2-64 clients (issue 20).
//  - Runs are immutable once stored (one transaction per run, re-ingest is a no-op), so a run's targets,
//    manifest and telemetry are loaded once and cached by id (checked against the run key, in case the
//    store file is replaced while the server runs). The cache is bounded; the oldest entry goes first.
//  - Runs that land while the server runs (WAL) appear at the next request: nothing is cached about the
//    list of runs itself here. Comparisons of two runs are cached the same way as runs (same reasoning).
//  - version() changes whenever the store does (a commit by another process, or the file replaced): the
//    server caches whole serialized answers per version (dashboard_server.cpp).
#pragma once
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "store/store.hpp"

namespace aisp::serve {

// A/A calibration runs (aisp::is_calibration, store/store.hpp) are shown in the runs list but never as a
// target's latest result or in the analyses.

class StoreView {
 public:
  // Throws std::runtime_error naming the file when it is missing or not a usable store.
  explicit StoreView(const std::filesystem::path& db, size_t cache_runs = 64, size_t connections = 4);
  ~StoreView();

  const std::filesystem::path& path() const { return path_; }
  std::vector<RunInfo> runs();  // oldest first
  // Store::resolve_run's rules (id, key, prefix, latest, previous); unknown → 404, ambiguous → 400.
  RunInfo resolve(const std::string& spec);
  // Targets (with raw samples), manifest and telemetry of one run.
  std::shared_ptr<const analysis::RunData> run(const RunInfo& info);
  std::vector<std::string> target_ids();
  // For each (target, hardware key): the id of the newest run that holds it, calibration runs left out.
  using Latest = LatestResult;
  std::vector<Latest> latest_results();
  std::vector<HistoryRow> history(const std::string& target, const std::string& hardware_key);
  std::vector<CompareRow> compare(const RunInfo& baseline, const RunInfo& candidate);

  // A token that changes when the store's content may have: SQLite's data_version (commits by other
  // connections) plus the file's identity and size (a replaced file, a WAL that grew).
  std::string version();

 private:
  struct Connection {
    Store store;  // read-only (Store::open_read_only); runs are read through Store::load_stored_run
  };
  // A borrowed connection, returned to the pool when this goes out of scope.
  class Lease {
   public:
    Lease(StoreView& v, Connection* c) : view_(v), c_(c) {}
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Connection* operator->() const { return c_; }

   private:
    StoreView& view_;
    Connection* c_;
  };
  Lease borrow();
  std::unique_ptr<Connection> connect() const;

  std::filesystem::path path_;
  std::mutex pool_mutex_;
  std::condition_variable pool_cv_;
  std::vector<std::unique_ptr<Connection>> all_;
  std::vector<Connection*> free_;
  std::mutex version_mutex_;
  std::unique_ptr<Store> version_store_;  // its own connection: data_version counts other connections' commits
  std::mutex cache_mutex_;  // the run and comparison caches
  size_t cache_runs_;
  std::map<int64_t, std::shared_ptr<const analysis::RunData>> cache_;
  std::deque<int64_t> cache_order_;
  // Comparisons by both runs' id and key: the bootstrap over both runs' samples takes ~0.1-0.3 s
  // for a few targets and its answer never changes (seeded resampling, immutable runs).
  std::map<std::string, std::vector<CompareRow>> compare_cache_;  // "<id> <key> <id> <key>"
  std::deque<std::string> compare_order_;
};

}  // namespace aisp::serve
