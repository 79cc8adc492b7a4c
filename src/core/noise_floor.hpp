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
  double device_floor = 0;   // the largest target floor: used for targets never calibrated
  ProcessSpread device_spread;  // the largest target spread: likewise
  double floor_for(const std::string& target) const;
  ProcessSpread spread_for(const std::string& target) const;
};

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
