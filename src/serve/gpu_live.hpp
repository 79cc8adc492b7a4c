// Live GPU state for /api/gpu, read through NVML only. The dashboard deliberately never initialises
// CUDA: a CUDA context in the server would be a foreign process on the GPU that a benchmark run's
// environment gate flags, and its initialisation would disturb the measurement the page is watching.
// NVML queries need no context. Without a driver (CI, this dev machine) the answer says so plainly.
#pragma once
#include <nlohmann/json.hpp>

namespace aisp::serve {

// {"available": bool, "reason" (when not), "driver_version", "gpus": [{index, name, uuid, sm_clock_mhz,
//  sm_clock_max_mhz, mem_clock_mhz, temperature_c, power_w, power_limit_w, utilization_gpu_pct,
//  utilization_mem_pct, memory_used_mb, memory_total_mb, clocks_event_reasons, compute_processes}]}.
// Thread-safe; the library is loaded once.
nlohmann::json live_gpu_status();

}  // namespace aisp::serve
