// Target discovery with the seed's rules, over a list of plugin/source files (pure, testable on CPU).
//   baseline_<x>  pairs with optimized_<x> and every optimized_<x>_<suffix>, unless a more specific
//   baseline_<x>_<suffix> exists (then that suffix belongs to the more specific baseline).
//   Python variants (baseline_<x>.py, optimized_<x>[_<suffix>].py, issue 23) pair by the same rules beside
//   the compiled ones, so a pair may mix .cu and .py variants; the supervisor starts the Python worker for them.
//   Target ids: "ch07:copy_scalar", "labs/<lab>:<x>"; selectors "ch07" (whole chapter) and "all".
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace aisp {

struct Variant {
  std::string name;  // "baseline" or the optimized stem minus "optimized_" ("copy_scalar", "copy_scalar_v2")
  std::string file;  // path as given (relative to the discovery root)
};

struct Target {
  std::string id;       // "ch07:copy_scalar"
  std::string chapter;  // "ch07" or "labs/<lab>"
  std::string example;  // "copy_scalar"
  Variant baseline;
  std::vector<Variant> optimized;  // sorted by name
  // Parameter-axis values this run sets (include/aisp/axes.hpp); empty: the pair's defaults. The id then
  // carries them: "ch07:copy_scalar[n=1048576]".
  std::map<std::string, int64_t> axes;
};

// `files`: paths relative to the root, like "ch07/baseline_copy_scalar.so" or "labs/x/optimized_y.cu".
// Files with the extension `ext` (".so" or ".cu") and Python files (".py") are considered; where one
// folder has both baseline_<x>.<ext> and baseline_<x>.py (or two such optimized files), the compiled one
// is the variant. Result sorted by id. Baselines without any optimized file are dropped.
std::vector<Target> discover_targets(const std::vector<std::string>& files, const std::string& ext);

inline constexpr const char* kPythonVariantExtension = ".py";
// True for a variant file the Python worker runs (python3 -m aisp.worker) instead of `aisp worker`.
bool is_python_variant(const std::string& file);

struct Selection {
  std::vector<Target> targets;
  std::vector<std::string> unknown;  // selectors that matched nothing
};
// Selectors: "all", "ch07", "labs/x", "ch07:copy_scalar", "labs/x:y". Keeps discovery order, no duplicates.
// A variant alias "ch07:copy_scalar_v2" (an optimized variant's name) selects its target with only the
// named variant(s), as the seed's alias targets did; a selector naming the whole target wins over aliases.
Selection select_targets(const std::vector<Target>& all, const std::vector<std::string>& selectors);

// Up to `limit` known ids/chapters closest to `query` by edit distance (for "did you mean").
std::vector<std::string> closest_names(const std::vector<Target>& all, const std::string& query, int limit = 3);

}  // namespace aisp
