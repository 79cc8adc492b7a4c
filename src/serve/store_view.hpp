// The dashboard's read-only window on the results store, shared by every request thread.
//  - One read-only connection (Store::open_read_only), serialised by a mutex: requests are short
//    (milliseconds) and SQLite serialises a connection's calls anyway.
//  - Runs are immutable once stored (one transaction per run, re-ingest is a no-op), so a run's targets,
//    manifest and telemetry are loaded once and cached by id (checked against the run key, in case the
//    store file is replaced while the server runs). The cache is bounded; the oldest entry goes first.
//  - Runs that land while the server runs (WAL) appear at the next request: nothing is cached about the
//    list of runs itself. Comparisons of two runs are cached the same way as runs (same reasoning).
#pragma once
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "store/store.hpp"

namespace aisp::sql {
class Db;
}

namespace aisp::serve {

// A/A calibration runs (`aisp bench calibrate`) time a baseline against itself: they are shown in the
// runs list but never as a target's latest result or in the analyses.
bool is_calibration(const RunInfo& r);
bool is_calibration(const std::string& label, const std::string& run_key);

class StoreView {
 public:
  // Throws std::runtime_error naming the file when it is missing or not a usable store.
  explicit StoreView(const std::filesystem::path& db, size_t cache_runs = 64);
  ~StoreView();

  const std::filesystem::path& path() const { return path_; }
  std::vector<RunInfo> runs();  // oldest first
  // Store::resolve_run's rules (id, key, prefix, latest, previous); unknown → 404, ambiguous → 400.
  RunInfo resolve(const std::string& spec);
  // Targets (with raw samples), manifest and telemetry of one run.
  std::shared_ptr<const analysis::RunData> run(const RunInfo& info);
  std::vector<std::string> target_ids();
  // For each (target, hardware key): the id of the newest run that holds it, calibration runs left out.
  struct Latest {
    std::string target, hardware_key;
    int64_t run_id = 0;
  };
  std::vector<Latest> latest_results();
  std::vector<HistoryRow> history(const std::string& target, const std::string& hardware_key);
  std::vector<CompareRow> compare(const RunInfo& baseline, const RunInfo& candidate);

 private:
  std::filesystem::path path_;
  std::mutex mutex_;
  Store store_;
  std::unique_ptr<sql::Db> raw_;  // read-only too: the manifest and telemetry tables Store has no accessor for
  size_t cache_runs_;
  std::map<int64_t, std::shared_ptr<const analysis::RunData>> cache_;
  std::deque<int64_t> cache_order_;
  // Comparisons by both runs' id and key: the bootstrap over both runs' samples takes ~0.1-0.3 s
  // for a few targets and its answer never changes (seeded resampling, immutable runs).
  std::map<std::string, std::vector<CompareRow>> compare_cache_;  // "<id> <key> <id> <key>"
  std::deque<std::string> compare_order_;
};

}  // namespace aisp::serve
