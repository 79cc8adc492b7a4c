// The A/A noise floor (`aisp bench calibrate`): each target's baseline timed against itself, in two
// workers, exactly as a real pair is. Whatever speedup interval that yields is what the harness calls
// "no difference" on this GPU; a real pair must beat it before it can be FASTER. Stored per hardware key
// in <artifacts>/calibration/noise_floor_<hwkey>.json.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "core/result.hpp"

namespace aisp {

struct NoiseFloorEntry {
  double speedup = 1, ci_low = 1, ci_high = 1;
  int64_t samples = 0;
  double floor = 0;  // largest relative deviation from 1 inside the A/A CI (0.004 = 0.4%)
  bool contains_one() const { return ci_low <= 1.0 && ci_high >= 1.0; }
};

struct NoiseFloor {
  std::string hardware_key, gpu, driver, cuda, date, commit;
  std::map<std::string, NoiseFloorEntry> targets;  // by target id ("ch07:copy_scalar")
  double device_floor = 0;  // the largest target floor: used for targets never calibrated
  double floor_for(const std::string& target) const;
};

// From an A/A run's results (each target's single optimized variant is the baseline itself).
NoiseFloor noise_floor_from_results(const std::vector<TargetResult>& aa_results);

json to_json(const NoiseFloor& f);
// Throws with the file name on a corrupt or truncated file.
NoiseFloor load_noise_floor(const std::filesystem::path& file);
std::filesystem::path noise_floor_path(const std::filesystem::path& artifacts_dir, const std::string& hardware_key);

}  // namespace aisp
