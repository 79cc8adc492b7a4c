// The results store: an SQLite file (default `artifacts/aisp.db`) holding every ingested run once (its
// manifest, targets and variants as JSON with generated columns over them, raw samples and samples-file
// telemetry as rows), plus the typed queries and the one loader its readers use. Schema:
// docs/result-schema.md ("Results store"). Rules the class keeps:
//  - a file that is not an SQLite database, or fails `PRAGMA quick_check`, is an error naming the file;
//    it is never recreated or written to;
//  - one run is inserted in one transaction, so a killed ingest leaves no partial run;
//  - WAL and a 10 s busy timeout, so two runs finishing at once both land.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/change_points.hpp"
#include "core/result.hpp"

namespace aisp {

namespace sql {
class Db;
}

inline constexpr int kStoreSchemaVersion = 4;

struct RunInfo {
  int64_t id = 0;
  std::string key;    // the run directory's name: "<YYYYmmdd_HHMMSS>__bench__<label>"; unique
  std::string stamp;  // "YYYYmmdd_HHMMSS" from the name ("" when the name does not start with one)
  std::string label, kind, mode, started_at, ended_at;
  std::string git_commit, git_branch, hardware_key, gpu_model;
  bool git_dirty = false, complete = true;
  int64_t targets = 0;
  std::string run_dir;  // where it was ingested from
};

struct IngestOptions {
  bool allow_partial = false;  // import a run that did not finish (its progress file says so)
  // Called after each target's rows are inserted, inside the transaction (tests kill the process here).
  std::function<void(const std::string& target)> on_target_inserted;
};

struct IngestOutcome {
  RunInfo run;
  bool inserted = false;  // false: this run was already stored (re-ingesting is a no-op)
  std::string message;
};

// One run of one target's variant, as history shows it.
struct HistoryRow {
  RunInfo run;
  std::string variant;  // optimized variant name ("" when the run had only a baseline result)
  std::string status, verdict;
  double baseline_ms = 0, baseline_low = 0, baseline_high = 0;  // median and its 95% CI
  double variant_ms = 0, variant_low = 0, variant_high = 0;
  double speedup = 0, ci_low = 0, ci_high = 0;
  std::optional<ChangePoint> baseline_change, variant_change;  // set on the first run of a new level
};

struct CompareRow {
  std::string target, variant;  // variant "baseline" for the baseline
  bool in_a = false, in_b = false;
  double a_ms = 0, a_low = 0, a_high = 0, b_ms = 0, b_low = 0, b_high = 0;
  double ratio = 0;                           // b median / a median: < 1 means B is faster
  double speedup = 0, ci_low = 0, ci_high = 0;  // a/b medians with a bootstrap CI from both runs' samples
  double p_value = 1;                         // Mann-Whitney U on the two sample sets
  bool ci_overlap = true;                     // the two medians' CIs overlap
  std::string change;                         // faster | slower | same | unclear | only in A | only in B
};

// Numeric series a run carries beside its timings (power_w, energy_mj, sm_mhz ...), per target, variant
// and metric: target -> variant -> metric -> values in sample order.
using TelemetrySeries = std::map<std::string, std::map<std::string, std::map<std::string, std::vector<double>>>>;

// One run as its readers (the analyses, the dashboard) use it: the row, the targets rebuilt with their
// raw samples, the manifest, and the per-target telemetry. Run-level telemetry rows (target '') are the
// manifest's hardware snapshot and are left out: `manifest` already holds them.
struct StoredRun {
  RunInfo info;
  std::vector<TargetResult> targets;
  nlohmann::json manifest;  // null when the stored text is not JSON
  TelemetrySeries telemetry;
};

// Which runs Store::find_runs / load_runs return; an unset field matches every run.
struct RunFilter {
  std::optional<std::string> hardware_key, mode;  // equal to this ("" included)
  bool complete_only = false;
  bool skip_calibration = false;  // leave out A/A calibration runs (is_calibration)
  std::optional<int64_t> before_run;  // only runs listed before this run id (all of them when it is unknown)
  std::optional<size_t> newest;       // keep only this many of the matches, the newest ones
};
// The runs a run is compared with in history and scaling: earlier, same hardware key and timing mode,
// complete, not calibration; the newest `newest` of them.
RunFilter earlier_like(const RunInfo& run, size_t newest);
// `runs` (list_runs order) narrowed by `filter`: what Store::find_runs applies to the stored runs.
std::vector<RunInfo> filter_runs(const std::vector<RunInfo>& runs, const RunFilter& filter);

// A/A calibration runs (`aisp bench calibrate`, label "calibrate-..." or a key with "__calibrate") time a
// baseline against itself: their "speedup" is the noise floor, so history and analyses leave them out.
bool is_calibration(const std::string& label, const std::string& run_key);
bool is_calibration(const RunInfo& r);

// The newest run that holds a target on one hardware key (calibration runs left out).
struct LatestResult {
  std::string target, hardware_key;
  int64_t run_id = 0;
};

// One stored profile (`aisp profile ncu|sanitizer`): the row's columns and the whole document
// (src/profile/profile_run.hpp describes it).
struct ProfileRow {
  int64_t id = 0;
  std::string created_at, tool, preset, target, variant, hardware_key, gpu_model, bench_run, dir;
  bool ok = false;
  std::string doc;  // JSON text
};

class Store {
 public:
  // Opens (creating when `create`) and migrates to kStoreSchemaVersion. Throws std::runtime_error naming
  // the file when it is not a usable store; such a file is left exactly as it was.
  static Store open(const std::filesystem::path& path, bool create = true);
  // Read-only (the dashboard): never creates, migrates or writes the file, not even the WAL switch; a
  // store at an older schema version is refused (migrating is a write: any `aisp bench` command does it).
  // Every write through this handle fails (SQLITE_OPEN_READONLY plus PRAGMA query_only).
  static Store open_read_only(const std::filesystem::path& path);
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;

  const std::filesystem::path& path() const;
  int schema_version();
  // SQLite's data_version: changes when another connection commits (never for this one's own writes).
  int64_t data_version();

  // Reads <run_dir>/manifest.json and results/benchmark_test_results.json (+ samples/ for telemetry);
  // a file that is missing, truncated or not valid JSON is an error naming it, and nothing is inserted.
  IngestOutcome ingest_run(const std::filesystem::path& run_dir, const IngestOptions& options = {});

  std::vector<RunInfo> list_runs();
  // By numeric id, run key (directory name), a path ending in it, a unique prefix (e.g. the stamp), or
  // "latest" / "previous". Unknown or ambiguous: an error listing the nearest run keys.
  RunInfo resolve_run(const std::string& spec);
  // The run's targets rebuilt from the store (samples included), as the results JSON had them.
  std::vector<TargetResult> load_run(int64_t run_id);
  std::vector<std::string> target_ids();
  // The one read path for whole runs: list_runs() narrowed by `filter` (chronological order kept), and
  // each run loaded with its targets, manifest and telemetry.
  std::vector<RunInfo> find_runs(const RunFilter& filter);
  StoredRun load_stored_run(const RunInfo& run);
  std::vector<StoredRun> load_runs(const RunFilter& filter);
  // For each (target, hardware key), the newest run holding it; ordered by target, then hardware key.
  std::vector<LatestResult> latest_results();

  // Oldest run first. Change points are found per (hardware key, timing mode, variant) series, so a GPU
  // or mode change is not a "shift".
  std::vector<HistoryRow> history(const std::string& target, const std::string& hardware_key = "",
                                  const ChangePointOptions& options = {});
  std::vector<CompareRow> compare_runs(int64_t run_a, int64_t run_b);

  // Profiles. `doc` is a profile document; its kernels' metrics also go to profile_metrics. One transaction.
  int64_t add_profile(const std::string& doc_json, const std::string& dir, const std::string& bench_run = "");
  // Newest first; empty strings match anything. `ok_only` skips failed runs.
  std::vector<ProfileRow> profiles(const std::string& target = "", const std::string& variant = "",
                                   const std::string& tool = "", size_t limit = 100, bool ok_only = false);

 private:
  explicit Store(std::unique_ptr<sql::Db> db);
  std::unique_ptr<sql::Db> db_;
};

// Up to `limit` names from `names` closest to `query` by edit distance.
std::vector<std::string> nearest_names(const std::vector<std::string>& names, const std::string& query, size_t limit = 3);

}  // namespace aisp
