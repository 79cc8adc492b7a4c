// `aisp worker --once`: the smallest process that runs one benchmark variant for a profiler or a
// sanitizer to watch. setup(), `warmup` untimed runs, then exactly one run() inside the NVTX push/pop
// range `nvtx_range` on a quiet GPU (everything before it is finished), so
// `ncu --nvtx --nvtx-include "<range>/"` profiles the timed kernels and nothing else: not the input
// fills, not the warm-ups, not the poison or verification kernels (the seed profiled its clock-ramp
// kernel until it filtered by NVTX range). No CUPTI subscription: ncu and compute-sanitizer own the
// profiling interfaces in this process.
#pragma once
#include <cstdint>
#include <string>

namespace aisp {

struct ProfiledRunOptions {
  std::string plugin;
  std::string result_file;               // JSON result written here ("" = stdout)
  std::string nvtx_range = "aisp_timed";
  int warmup = 1;                        // untimed run() calls before the ranged one (caches, lazy init)
  uint64_t seed = 42;                    // input seeds (static = seed, dynamic = seed + 1)
};

// 0: the ranged run completed (its outputs checked for unwritten elements); 3: the plugin did not load;
// 4: a CUDA error or exception (named in the result file). Never throws.
int profiled_run_main(const ProfiledRunOptions& options);

}  // namespace aisp
