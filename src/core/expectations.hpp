// Expectations per hardware key, kept next to the pairs: `chapters/chNN/expectations_<hwkey>.json`
// (`h100_80gb_hbm3`, `h200` ...). An entry says what a pair achieved on that hardware — medians, the best
// optimization's speedup with its bootstrap CI, and where the number came from (GPU, driver, CUDA,
// commit, date, samples) — so a later run can say "this got slower" with evidence instead of a hunch.
// Layout follows the seed's schema (examples -> {metrics, metadata, provenance}); docs/result-schema.md.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/result.hpp"

namespace aisp {

inline constexpr int kExpectationsSchemaVersion = 1;
// Why 5%: the expected CI comes from another session (other day, clocks, thermals, driver state). A
// 95% CI covers sampling noise inside one run, not that session-to-session drift, which is a few
// percent on H100. Requiring the whole current CI to sit more than 5% below the whole expected CI
// makes a regression both statistically supported (non-overlapping CIs) and large enough to matter;
// 5% is also the seed's minimum-speedup gate (1.05x) and its tier-1 regression threshold.
inline constexpr double kDefaultExpectationTolerance = 0.05;

struct ExpectationProvenance {
  std::string hardware_key, gpu, driver_version, cuda_version, git_commit, timestamp, mode, run_dir,
      aisp_version;
  bool git_dirty = false;
  int64_t baseline_samples = 0, optimized_samples = 0;
  // The workload's parameters when recorded (sizes, shapes: the pair's declared params). A run whose params
  // differ measured another workload - a pair whose default size changed - and is not compared. Empty in
  // entries recorded before the field existed: those are compared as before.
  std::map<std::string, double> workload_params;
};

struct ExpectedVariant {
  double time_ms = 0, speedup = 0, ci_low = 0, ci_high = 0;
  int64_t samples = 0;
  std::string status, verdict;
};

struct ExpectationEntry {
  std::string example, target, goal = "speed", status;
  double minimum_required_speedup = 0;
  // metrics
  double baseline_time_ms = 0, best_optimized_time_ms = 0;
  double best_speedup = 0, ci_low = 0, ci_high = 0, p_value = 1;
  double baseline_memory_mb = 0, best_optimized_memory_mb = 0, best_memory_savings_pct = 0;
  // metadata
  std::string best_optimization, best_optimization_file, best_optimization_technique, verdict;
  std::map<std::string, ExpectedVariant> variants;
  ExpectationProvenance provenance;
};

struct ExpectationFile {
  std::string hardware_key;
  std::map<std::string, ExpectationEntry> examples;  // by example name (sorted: stable diffs in git)
};

json to_json(const ExpectationEntry& e);
json to_json(const ExpectationFile& f);
// Throws std::runtime_error naming `source` when the document is not a valid expectations file.
ExpectationFile expectation_file_from_json(const json& j, const std::string& source);

std::filesystem::path expectations_path(const std::filesystem::path& chapter_dir, const std::string& hardware_key);
// Missing file: an empty file for `hardware_key` (nothing expected yet). A corrupt, truncated or
// foreign file throws, naming the file: it is the user's data and is never overwritten by aisp.
ExpectationFile load_expectations(const std::filesystem::path& file, const std::string& hardware_key);
// Atomic (temp + fsync + rename): a killed run never leaves half a file.
void save_expectations(const std::filesystem::path& file, const ExpectationFile& f);

// The key of a target's entry in its chapter's file: the example name, plus the axis point when the run
// was at one ("copy_scalar[n=1048576]", the part of the target id after "<chapter>:"). One example run at
// another workload point is another measurement: compared with (and recorded as) its own entry, never with
// the default point's.
std::string expectation_key(const TargetResult& t);

// The entry a run would record for this target, or nullopt with `why` when the result must not become
// an expectation (failed, invalid, skipped, unvalidated, no measured speedup).
std::optional<ExpectationEntry> entry_from_result(const TargetResult& t, const ExpectationProvenance& p,
                                                  std::string* why = nullptr);

enum class ExpectationStatus { ok, regression, improvement, new_entry, not_comparable };
const char* expectation_status_name(ExpectationStatus s);  // ok | regression | improvement | new | not_comparable

struct ExpectationComparison {
  ExpectationStatus status = ExpectationStatus::not_comparable;
  std::string variant;  // the current variant compared
  double expected_speedup = 0, expected_ci_low = 0, expected_ci_high = 0;
  double speedup = 0, ci_low = 0, ci_high = 0;
  double tolerance = kDefaultExpectationTolerance;
  std::string message;
  // not_comparable because the recorded entry measured other workload params (the pair's default size
  // changed): --update-expectations replaces it, as it would a new entry.
  bool workload_changed = false;
};

// Compares a target's current result with its stored expectation (nullptr: none stored -> new).
// Speed goal: regression when current CI high < expected CI low x (1 - tolerance); improvement when
// current CI low > expected CI high x (1 + tolerance); otherwise ok. The variant compared is the
// expectation's best optimization when this run measured it, else the run's best (apples to apples).
// Memory goal: the peak-memory saving, with `tolerance` x 100 percentage points (no CI exists for it).
ExpectationComparison compare_expectation(const TargetResult& t, const ExpectationEntry* expected,
                                          double tolerance = kDefaultExpectationTolerance);

// Whether an update run may (over)write the stored entry: new, ok and improvement always; a
// regression only when accepted; results that are not comparable never.
bool may_write_expectation(ExpectationStatus s, bool accept_regressions);
// The same for a whole comparison: an entry measured at other workload params is replaced as a new one is.
bool may_write_expectation(const ExpectationComparison& c, bool accept_regressions);

}  // namespace aisp
