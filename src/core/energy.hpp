// Energy per run from the NVML counter deltas the worker reads around each timed block.
#pragma once
#include <nlohmann/json.hpp>

namespace aisp {

// `telemetry` holds one value per block: "energy_mj" (counter delta), "block_wall_ms" (host wall time of
// the block) and "block_gpu_ms" (event time of its runs). Returns null when no block reported energy, else
// {"joules", "wall_s", "gpu_busy_s", "mean_power_w", "joules_per_run", "method"}:
//   mean_power_w   = joules / wall_s                  (board power averaged over the timed blocks)
//   joules_per_run = mean_power_w * median_ms / 1000
// In cold mode the blocks also hold the harness's L2 flush, input refill and idle gaps, so the mean power
// is below the kernel's busy power and joules_per_run is an estimate (hot mode keeps the GPU busier);
// "gpu_busy_s" / "wall_s" says how busy it was.
nlohmann::json energy_summary(const nlohmann::json& telemetry, double median_ms);

}  // namespace aisp
