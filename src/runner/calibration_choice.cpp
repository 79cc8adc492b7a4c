#include "runner/calibration_choice.hpp"

#include <fmt/format.h>

#include "runner/bench_request.hpp"

namespace aisp {
namespace fs = std::filesystem;

CalibrationChoice choose_calibration(const std::string& requested, const fs::path& own_file,
                                     const fs::path& source_root, const std::string& hwkey) {
  CalibrationChoice choice;
  if (requested == "none") return choice;
  bool given = !requested.empty();
  fs::path use = given ? fs::path(requested) : own_file;
  if (!given && !fs::exists(use) && !source_root.empty())
    use = source_root / "results" / "reference" / hwkey / own_file.filename();
  if (given && !fs::exists(use))
    throw BenchError("NoNoiseFloor", fmt::format("--noise-floor: {} does not exist", use.string()), 2);
  if (!fs::exists(use)) return choice;
  try {
    NoiseFloor f = load_noise_floor(use);
    if (f.hardware_key != hwkey)
      throw std::runtime_error(
          fmt::format("{} was measured on '{}', this GPU is '{}'", use.string(), f.hardware_key, hwkey));
    choice.floor = std::move(f);
    choice.file = use;
  } catch (const std::exception& e) {
    if (given) throw BenchError("BadNoiseFloor", e.what(), 2);
    choice.warning = fmt::format("ignoring the noise-floor file: {}", e.what());
  }
  return choice;
}

}  // namespace aisp
