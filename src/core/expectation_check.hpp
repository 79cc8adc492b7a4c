// Expectations applied to a whole run (after every target finished) and listed across chapters
// (`aisp bench expectations`). Per chapter: load `<chapter dir>/expectations_<hwkey>.json` once,
// compare each target, write the outcome into the target's `expectation`, turn a regression into the
// seed's `failed_regression` (unless accepted), and rewrite the file only when asked to.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/expectations.hpp"

namespace aisp {

struct ExpectationCheckOptions {
  bool enabled = false;
  std::filesystem::path source_root;  // where chNN/ (or chapters/chNN/) and labs/ live; empty: skip
  bool update = false;                // --update-expectations: write new/ok/improved entries
  bool accept_regressions = false;    // --accept-regressions: a regression does not fail the run
                                      // (and, with --update-expectations, replaces the entry)
  double tolerance = kDefaultExpectationTolerance;
};

struct ExpectationCheckRow {
  std::string target, chapter, file;
  ExpectationComparison comparison;
  std::optional<ExpectationProvenance> expected_provenance;  // when an entry existed
  bool written = false, accepted = false;
  std::string action;  // what happened to the stored entry, in words
};

struct ExpectationCheckReport {
  std::string hardware_key;
  double tolerance = kDefaultExpectationTolerance;
  bool update = false, accept_regressions = false;
  std::vector<ExpectationCheckRow> rows;
  std::vector<std::string> notes;  // chapters skipped, corrupt files ...
  std::vector<std::string> files_written;
  int count(ExpectationStatus s) const;
  json to_json() const;  // the manifest's `expectations` block
  std::string summary_line() const;
};

// root/chapters/<chapter>, else root/<chapter> (labs/<lab>, or a --bench-root holding chNN/); empty
// when neither is a directory.
std::filesystem::path chapter_source_dir(const std::filesystem::path& root, const std::string& chapter);

// From the run's manifest (hardware, git, software, start_time, mode).
ExpectationProvenance provenance_from_manifest(const json& manifest, const std::filesystem::path& run_dir);

ExpectationCheckReport check_expectations(std::vector<TargetResult>& results, const std::string& hardware_key,
                                          const ExpectationProvenance& provenance,
                                          const ExpectationCheckOptions& options);

// Every stored entry whose file's hardware key is `hardware` or starts with `hardware` + "_" (so
// "h100" finds h100_80gb_hbm3), across chapters/ and labs/ under `root`, sorted by chapter and example.
struct ListedExpectation {
  std::string chapter, hardware_key;
  std::filesystem::path file;
  ExpectationEntry entry;
};
std::vector<ListedExpectation> list_expectations(const std::filesystem::path& root, const std::string& hardware,
                                                 std::vector<std::string>* errors = nullptr);

}  // namespace aisp
