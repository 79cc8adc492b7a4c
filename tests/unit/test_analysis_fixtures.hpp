// Small synthetic results with hand-computable answers, shared by the analysis tests.
#pragma once
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "core/result.hpp"

namespace aisp::analysis::testing {

inline VariantResult variant(const std::string& name, double median_ms, double peak_mb, double speedup = 0,
                             const std::string& verdict = "", const std::string& technique = "") {
  VariantResult v;
  v.name = name;
  v.status = "succeeded";
  v.verdict = verdict;
  v.technique = technique;
  v.timing.n = 100;
  v.timing.median = median_ms;
  v.timing.p50 = median_ms;
  v.timing.p99 = median_ms * 1.1;  // a tail 10% above the median
  v.timing.mean = median_ms;
  v.memory.peak_mb = peak_mb;
  v.memory.allocated_mb = peak_mb / 2;
  v.speedup = speedup;
  if (speedup > 0) v.ci_low = speedup * 0.99, v.ci_high = speedup * 1.01;
  return v;
}

// One target: a baseline and its optimized variants, with a declared workload.
inline TargetResult target(const std::string& id, VariantResult base, std::vector<VariantResult> opts,
                           double bytes = 0, double flops = 0, double items = 0, const std::string& precision = "f32",
                           nlohmann::json params = nlohmann::json::object()) {
  TargetResult t;
  t.id = id;
  t.chapter = id.substr(0, id.find(':'));
  t.example = id.substr(id.find(':') + 1);
  t.status = "succeeded";
  t.mode = "cold";
  t.baseline = std::move(base);
  t.optimizations = std::move(opts);
  nlohmann::json w = {{"precision", precision}, {"item_unit", "elements"}, {"params", params}};
  if (bytes > 0) w["bytes"] = bytes;
  if (flops > 0) w["flops"] = flops;
  if (items > 0) w["items"] = items;
  t.workload = w;
  return t;
}

// An H100 SXM as its manifest describes it: DRAM 2 x 2619 MHz x 5120 bit = 3352.32 GB/s; FP32 FMA
// 2 x 128 lanes x 132 SMs x 1980 MHz = 66.908 TFLOP/s.
inline Hardware h100() {
  Hardware hw;
  hw.gpu_model = "NVIDIA H100 80GB HBM3";
  hw.hardware_key = "h100_80gb_hbm3";
  hw.device.name = hw.gpu_model;
  hw.device.cc_major = 9;
  hw.device.cc_minor = 0;
  hw.device.sm_count = 132;
  hw.device.sm_clock_max_mhz = 1980;
  hw.device.mem_clock_max_mhz = 2619;
  hw.device.memory_bus_width_bits = 5120;
  hw.device.l2_bytes = 50 << 20;
  return hw;
}

}  // namespace aisp::analysis::testing
