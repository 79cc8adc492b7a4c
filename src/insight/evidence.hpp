// The measurements an answer is grounded in: one stored run (its variants with the derived figures of
// src/analysis: verdict, CI, declared bytes/FLOPs, achieved rates, % of roofline against the measured
// ceilings) and, when present, ncu profiles of a target (from the store or a profile directory).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/dataset.hpp"
#include "analysis/variant_metrics.hpp"
#include "insight/answer.hpp"
#include "profile/ncu_csv.hpp"
#include "store/store.hpp"

namespace aisp::insight {

struct EvidenceSource {
  std::filesystem::path db;  // the results store (read-only)
  std::string run;           // a run as Store::resolve_run names it; "" = the newest holding the target
  std::string hardware_key;  // narrows the automatic run choice ("" = any)
  std::string caps;          // hardware_capabilities_<hwkey>.json; "" = looked for in caps_dirs
  std::vector<std::filesystem::path> caps_dirs;
  std::filesystem::path profiles_dir;  // *.profile.json or raw ncu CSVs named <variant>.csv; "" = the store's
  std::string label;                   // prefix for `source` ("shipped reference dataset ...")
};

struct RunEvidence {
  RunInfo run;
  analysis::Hardware hardware;
  std::vector<analysis::VariantRow> rows;  // every target of the run (or the one asked for)
  std::vector<LatestResult> elsewhere;     // the target's newest runs on other hardware keys
  std::string source;
  Citation citation() const;           // "run <id>"
  Citation ceilings_citation() const;  // where the roofline ceilings came from
  std::vector<const analysis::VariantRow*> rows_of(const std::string& target) const;
  std::vector<std::string> targets() const;  // in run order
};

// The run for `target` (the newest holding it, unless src.run names one): its rows for `target` only, or
// every target's rows when `keep_all` or `target` is empty. Throws std::runtime_error with the nearest stored target
// names when the target is not stored, or when the store holds no usable run.
RunEvidence load_run_evidence(const EvidenceSource& src, const std::string& target, bool keep_all = false);

struct ProfileEvidence {
  std::string variant;
  profile::KernelProfile kernel;  // the variant's kernels aggregated (profile_compare.hpp)
  std::vector<profile::KernelProfile> kernels;
  Citation citation;  // "profile <id>" (store) or "profile <file name>" (directory)
};

// The newest ncu profile per variant of `target`, baseline first; empty when none is stored.
std::vector<ProfileEvidence> load_profile_evidence(const EvidenceSource& src, const std::string& target);

}  // namespace aisp::insight
