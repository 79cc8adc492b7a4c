#include "core/energy.hpp"

#include <cstddef>

namespace aisp {

nlohmann::json energy_summary(const nlohmann::json& telemetry, double median_ms) {
  if (!telemetry.is_object() || !telemetry.contains("energy_mj")) return nullptr;
  const auto& energy = telemetry["energy_mj"];
  const auto& wall = telemetry.value("block_wall_ms", nlohmann::json::array());
  const auto& busy = telemetry.value("block_gpu_ms", nlohmann::json::array());
  // Blocks are appended together, so the series line up; a block without energy is not in "energy_mj"
  // only if the counter was missing for all of them, which returns above.
  if (!energy.is_array() || energy.empty() || energy.size() != wall.size()) return nullptr;
  double joules = 0, wall_s = 0, busy_s = 0;
  for (size_t i = 0; i < energy.size(); ++i) {
    joules += energy[i].get<double>() / 1000.0;
    wall_s += wall[i].get<double>() / 1000.0;
    if (i < busy.size()) busy_s += busy[i].get<double>() / 1000.0;
  }
  if (wall_s <= 0) return nullptr;
  double mean_power_w = joules / wall_s;
  return {{"joules", joules},
          {"wall_s", wall_s},
          {"gpu_busy_s", busy_s},
          {"mean_power_w", mean_power_w},
          {"joules_per_run", median_ms > 0 ? mean_power_w * median_ms / 1000.0 : 0.0},
          {"method", "NVML total-energy counter read before and after each timed block; joules_per_run = mean "
                     "board power over the blocks x median run time"}};
}

}  // namespace aisp
