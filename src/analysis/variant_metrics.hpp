// Per measured variant: roofline ceilings, energy, and the derived figures (rates, intensity, % of roofline,
// memory saving) every other analysis ranks or filters.
#pragma once
#include <string>
#include <vector>

#include "analysis/dataset.hpp"
#include "analysis/measured_number.hpp"
#include "core/result.hpp"

namespace aisp::analysis {

// Roofline ceilings for one precision: measured ones (hardware_capabilities) when present, else computed
// from device properties. `source` says which, and is empty when neither is known.
struct RooflineCeilings {
  double dram_bytes_per_s = kNaN;
  double flops_per_s = kNaN;
  std::string bandwidth_source, compute_source;
  bool measured_bandwidth = false, measured_compute = false;
};
RooflineCeilings roofline_ceilings(const Hardware& hw, const std::string& precision);

// Energy of one run() of a variant, from NVML energy counters. `present` is false (and `why` says so) when
// the run recorded no energy. Sources, first found wins: the variant's "energy" summary the harness writes
// (core/energy.hpp: board energy over the timed blocks; in cold mode an estimate, see gpu_busy_fraction),
// then per-run energy series in the telemetry (energy_per_run_j/_mj, or energy_j/_mj with energy_runs).
struct Energy {
  bool present = false;
  double joules_per_run = kNaN, avg_power_w = kNaN;
  double gpu_busy_fraction = kNaN;  // GPU event time / wall time of the blocks the energy was read over
  std::string source, why;
};
Energy energy_of(const Telemetry& t, const std::string& target, const std::string& variant, double median_ms);
// From the harness's per-variant energy summary ({"joules", "wall_s", "gpu_busy_s", "mean_power_w",
// "joules_per_run", "method"}); present=false when `summary` is not such an object.
Energy energy_from_summary(const json& summary);

// One measured variant (the baseline included) with everything the analyses derive from it.
struct VariantRow {
  std::string target, variant, technique, status, verdict, goal, mode, precision, item_unit;
  bool baseline = false;
  bool usable = false;          // succeeded and not INVALID: may be ranked
  std::string unusable_reason;  // when !usable
  double median_ms = kNaN, p99_ms = kNaN, rel_noise = kNaN;
  int64_t samples = 0;
  double flops = kNaN, bytes = kNaN, items = kNaN;  // per run(), as the workload declares them (NaN: not declared)
  double speedup = kNaN, ci_low = kNaN, ci_high = kNaN;  // 1 for the baseline
  double peak_mb = kNaN, allocated_mb = kNaN, memory_savings_pct = kNaN;
  double items_per_s = kNaN, bytes_per_s = kNaN, flops_per_s = kNaN;
  double arithmetic_intensity = kNaN;  // FLOP per DRAM byte (declared workload); NaN when no FLOPs declared
  double roofline_pct = kNaN;          // achieved / attainable at this intensity, in %
  std::string bound;                   // "memory" | "compute" | "" (unknown)
  Energy energy;
  json params;                         // the workload's params
};
std::vector<VariantRow> variant_rows(const std::vector<TargetResult>& targets, const DerivationInputs& ctx = {});

}  // namespace aisp::analysis
