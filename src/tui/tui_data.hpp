// What `aisp bench tui` shows, read once per refresh and kept apart from how it is drawn: the stored
// targets with their newest verdict and CI (per hardware key), the stored runs, a target's history, and
// the runs in progress under the artifacts directory (their progress/run_progress.json). Pure data, so
// the screens are tested without a terminal.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace aisp {

// One target's newest stored result on one hardware key: its best optimized variant by speedup.
struct TuiTarget {
  std::string target, hardware_key, run_key, status, best_variant, verdict;
  double baseline_ms = 0, best_ms = 0, speedup = 0, ci_low = 0, ci_high = 0;
  int variants = 0;  // optimized variants in that run
};

// A run whose progress file is not `finished`: what `bench run` wrote there last.
struct LiveRun {
  std::string run_key, state, target, estimate;
  size_t completed = 0, total = 0;
  double elapsed_s = 0;
  double age_s = 0;  // seconds since the progress file was written (a stale one belongs to a killed run)
};

struct TuiData {
  std::filesystem::path store_path, artifacts_dir;
  std::string store_note;  // why there is no stored data ("no store at …"), empty when the store opened
  std::vector<TuiTarget> targets;
  std::vector<RunInfo> runs;  // oldest first, as `aisp bench runs`
  std::vector<LiveRun> live;
};

// Reads the store (read-only; a missing or unusable store is a note, not an error) and the live runs.
TuiData load_tui_data(const std::filesystem::path& store_path, const std::filesystem::path& artifacts_dir);

// The runs under <artifacts_dir>/runs whose progress file says starting or running, newest first.
std::vector<LiveRun> find_live_runs(const std::filesystem::path& artifacts_dir);

// A target's stored history, oldest first (empty when the store is missing).
std::vector<HistoryRow> load_tui_history(const std::filesystem::path& store_path, const std::string& target);

}  // namespace aisp
