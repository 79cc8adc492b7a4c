// What a benchmark declares about itself besides its code: workload, tolerance, goal, requirements.
// CUDA-free so the supervisor (which never loads a plugin) shares these types.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "aisp/dtype.hpp"

namespace aisp {

// The input signature. It must be identical for a baseline and every optimized variant, and it drives
// throughput numbers: bytes is the minimum DRAM traffic of one run() (each input read once, each output
// written once), flops the arithmetic of one run(), items whatever the user counts (tokens, elements).
struct Workload {
  std::map<std::string, int64_t> params;
  DType precision = DType::f32;
  double bytes = 0, flops = 0, items = 0;
  std::string item_unit = "items";
};

// Output comparison tolerance. Negative values mean "the default for the output dtype" (fp32 1e-5/1e-8,
// fp16/bf16 1e-3/1e-5, fp8 1e-2/1e-3, integers exact). Loosening needs a written justification, which
// the report prints next to the result.
struct Tolerance {
  double rtol = -1, atol = -1;
  std::string justification;
  static Tolerance by_dtype() { return {}; }
  static Tolerance loosened(double rtol, double atol, std::string why) { return {rtol, atol, std::move(why)}; }
};

enum class Goal { speed, memory, throughput, latency };

struct Requirements {
  int min_compute_capability = 0;  // e.g. 90 for Hopper-only instructions (wgmma, TMA)
  int gpus = 1;
  int64_t min_memory_bytes = 0;
};

}  // namespace aisp
