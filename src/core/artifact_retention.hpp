// `aisp clean`: which artifact directories a retention policy removes. Run directories
// (<artifacts>/runs/<stamp>__bench__<label>/) and profile directories (<artifacts>/profiles/<stamp>__<tool>__<target>/)
// are dated by the stamp in their name (the directory's mtime when the name has none). Measured ceilings
// (hw/), noise floors (calibration/) and the results store are never candidates by age or count: the
// store holds every run's history, so it is listed only when asked for (include_store).
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aisp {

struct RetentionPolicy {
  std::optional<double> older_than_days;  // remove what is older than this ...
  std::optional<size_t> keep;             // ... and not among the newest `keep` of its kind (runs, profiles)
  bool include_store = false;             // also remove the results store (its -wal/-shm files too)
  std::filesystem::path store;            // the store that include_store removes
};

struct RetentionItem {
  std::filesystem::path path;
  std::string kind;  // run | profile | store
  double age_days = 0;
  uintmax_t bytes = 0;
  bool remove = false;
  std::string reason;  // why it is removed or kept ("older than 30 days", "newest 5", "in progress")
};

// Dry: looks only. Both limits given: an item goes when it is older than older_than_days AND not among
// the newest `keep`. A run whose progress file says "running" is kept (it may be in progress).
std::vector<RetentionItem> plan_retention(const std::filesystem::path& artifacts_dir, const RetentionPolicy& policy,
                                          std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// "20261125_005247" at the start of a directory name as a time point (UTC); nullopt when it has none.
std::optional<std::chrono::system_clock::time_point> stamp_time(const std::string& name);

}  // namespace aisp
