// Which A/A calibration (`aisp bench calibrate`, core/noise_floor.hpp) a bench run applies.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "core/noise_floor.hpp"

namespace aisp {

struct CalibrationChoice {
  std::optional<NoiseFloor> floor;  // none: every target gets the documented default spread
  std::filesystem::path file;       // the file the floor came from
  std::string warning;              // a default file that was found but not used, and why
};

// `requested` is --noise-floor: "none" applies none; a path must exist, be readable and come from this
// GPU's hardware key (else BenchError NoNoiseFloor / BadNoiseFloor, exit 2). Empty: this machine's own
// file (`own_file`, <artifacts>/calibration/noise_floor_<hwkey>.json), else the one committed with the
// reference data, <source_root>/results/reference/<hwkey>/; a default that is unreadable or from another
// GPU is a warning, not an error, because the user never named it.
CalibrationChoice choose_calibration(const std::string& requested, const std::filesystem::path& own_file,
                                     const std::filesystem::path& source_root, const std::string& hardware_key);

}  // namespace aisp
