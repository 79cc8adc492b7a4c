// The A/A noise floor (`aisp bench calibrate`): each target's baseline timed against copies of itself,
// each copy in its own worker process, interleaved exactly as a real pair is. Two things come out:
//  * the between-process spread (stats.hpp ProcessSpread): what one pair of processes cannot see in its
//    own bootstrap interval; later runs widen every speedup interval by it;
//  * the floor: the largest deviation from 1 inside those widened A/A intervals, which the harness calls
//    "no difference" on this GPU (a slowdown inside it is SAME, a win must clear it).
// Stored per hardware key in <artifacts>/calibration/noise_floor_<hwkey>.json.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/stats.hpp"

namespace aisp {

// One copy of the baseline compared with the baseline process.
struct AaComparison {
  std::string variant;                  // "aa_self_2"
  Interval within;                      // the pair's own bootstrap interval (sampling noise only)
  Interval widened;                     // with the between-process spread
  int64_t samples = 0;
};

struct NoiseFloorEntry {
  double speedup = 1, ci_low = 1, ci_high = 1;  // the comparison farthest from 1 (widened interval)
  int64_t samples = 0;
  double floor = 0;  // largest relative deviation from 1 inside the widened A/A intervals (0.004 = 0.4%)
  ProcessSpread spread;
  std::vector<AaComparison> comparisons;
  bool contains_one() const { return ci_low <= 1.0 && ci_high >= 1.0; }
  // Comparisons whose within-process interval alone excludes 1.0 (the systematic shift the spread explains).
  int within_excluding_one() const;
};

struct NoiseFloor {
  std::string hardware_key, gpu, driver, cuda, date, commit;
  std::map<std::string, NoiseFloorEntry> targets;  // by target id ("ch07:copy_scalar")
  double device_floor = 0;   // the largest target floor: used for targets never calibrated (files without spreads)
  ProcessSpread device_spread;  // the largest target spread (recorded in the file; not applied, see spread_for)
  double floor_for(const std::string& target) const;
  // The target's own measured spread; for a target this file never calibrated, the upper quartile of the
  // file's measured spreads (kUncalibratedSpreadPercentile); not measured when the file has none.
  ProcessSpread spread_for(const std::string& target) const;
};

// The spread a target gets when no calibration of its own covers it. Between-process shifts are real on
// every kernel (0.03-0.2% on memory-bound ones, several % on host-bound ones), so a run with no
// calibration cannot assume none: an A/A pair would then come out FASTER or SLOWER (issue 18, hole 6).
// The upper quartile is used, not the maximum: the largest measured spreads belong to host-side targets
// (storage, pageable copies, a CPU pipeline), and the 95% widening of the maximum (t(3) * sqrt(2) * 0.078,
// ±35%) would leave even a real 1.2x INCONCLUSIVE. The quartile's widening (±1.8%) keeps an A/A pair
// inside the 1.05x equivalence band (SAME) and leaves 1.2x and 2x FASTER. docs/harness.md, "Between-process
// spread".
inline constexpr double kUncalibratedSpreadPercentile = 0.75;

// The p-quantile (linear interpolation between order statistics, numpy's default) of the measured
// spreads of a calibration's targets; df is the smallest df among them. Not measured when none is.
ProcessSpread spread_percentile(const NoiseFloor& f, double p);

// The built-in default, for a GPU with no calibration at all: spread_percentile(file, 0.75) of the
// committed H100 calibration, results/reference/h100_80gb_hbm3/noise_floor_h100_80gb_hbm3.json (42 targets,
// 4 processes each, 2026-11-25). tests/unit/test_default_process_spread.cpp recomputes it from that file
// and fails (printing the new value) when the file changes without this constant.
inline constexpr ProcessSpread kDefaultProcessSpread{0.0040246216, 3};

// What one target's run applies: its calibration's spread (or its floor, for a file without spreads),
// else the default spread. `calibration` may be null (no calibration file for this GPU).
struct NoiseModel {
  ProcessSpread spread;
  double floor = 0;
  std::string source;  // "calibration" | "calibration (device quartile)" | "calibration (floor)" | "default"
};
NoiseModel noise_model_for(const NoiseFloor* calibration, const std::string& target);

// From an A/A run's results: each target's optimized variants are copies of its baseline ("aa_self_1"...).
NoiseFloor noise_floor_from_results(const std::vector<TargetResult>& aa_results);

// A calibration of some targets updates the file: `older`'s targets that `fresh` did not measure are kept
// (same hardware key only), and the device-wide floor and spread are recomputed over all of them.
void keep_older_targets(NoiseFloor& fresh, const NoiseFloor& older);

json to_json(const NoiseFloor& f);
// Throws with the file name on a corrupt or truncated file.
NoiseFloor load_noise_floor(const std::filesystem::path& file);
std::filesystem::path noise_floor_path(const std::filesystem::path& artifacts_dir, const std::string& hardware_key);

}  // namespace aisp
