// What `aisp profile` asks ncu for and how it reads the answers, as data: the seed's presets (minimal,
// roofline, deep_dive), the "Key NCU Metrics" thresholds (good / warning / critical) and the
// "Optimization Patterns" table (seed 001). Rules in bottleneck.cpp refer to metrics by these names.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "profile/ncu_csv.hpp"

namespace aisp::profile {

// Metric names, spelled as ncu expects them (checked against `ncu --query-metrics` on an H100, ncu
// 2025.3.1). Only the ones rules or tables read by name are listed here; presets hold the full lists.
namespace m {
inline constexpr const char* duration = "gpu__time_duration.sum";
inline constexpr const char* sm_throughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* dram_throughput = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* l2_throughput = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* mem_throughput = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* theoretical_occupancy = "sm__maximum_warps_per_active_cycle_pct";
inline constexpr const char* tensor_active = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* sm_cycles_active = "sm__cycles_active.avg";
inline constexpr const char* dram_read = "dram__bytes_read.sum";
inline constexpr const char* dram_write = "dram__bytes_write.sum";
inline constexpr const char* ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* ld_efficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
inline constexpr const char* st_efficiency = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
inline constexpr const char* local_ld = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
inline constexpr const char* local_st = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
inline constexpr const char* bank_conflicts_ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* bank_conflicts_st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* shared_ld_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* registers = "launch__registers_per_thread";
inline constexpr const char* threads_per_inst = "smsp__thread_inst_executed_per_inst_executed.ratio";
inline constexpr const char* stall_prefix = "smsp__warp_issue_stalled_";
inline constexpr const char* stall_suffix = "_per_warp_active.pct";
}  // namespace m

// The stall reasons deep_dive collects, in the seed's order of interest.
const std::vector<std::string>& stall_reasons();
std::string stall_metric(const std::string& reason);  // "long_scoreboard" -> smsp__..._per_warp_active.pct

// FP instruction counters (thread-level, predicated on) that the roofline preset turns into FLOPs:
// {metric, FLOPs per instruction, precision}. Tensor-core work is not counted (see docs/profile.md).
struct FlopCounter { const char* metric; double flops_per_inst; const char* precision; };
const std::vector<FlopCounter>& flop_counters();

struct Preset {
  std::string name;         // minimal | roofline | deep_dive
  std::string description;
  std::vector<std::string> metrics;
};
// Each preset includes the ones before it: minimal ⊂ roofline ⊂ deep_dive.
const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);
// The preset `have` covers what `need` asks for (deep_dive covers everything).
bool preset_covers(const std::string& have, const std::string& need);

// The seed's "Key NCU Metrics" table.
enum class Level { good, warning, critical, unknown };
const char* level_name(Level l);
struct Threshold {
  std::string metric, label, meaning;
  bool higher_is_better = true;
  double good = 0, critical = 0;  // higher_is_better: > good is good, < critical is critical; else mirrored
  std::string unit = "%";
};
const std::vector<Threshold>& thresholds();
Level judge(const Threshold& t, double value);

// "Optimization Patterns" (seed 001), extended with the rows the decision tree can also reach.
struct Pattern {
  std::string bottleneck;  // the verdict id it answers: memory_bound, occupancy_limited, ...
  std::string title;
  std::vector<std::string> fixes;
};
const std::vector<Pattern>& optimization_patterns();
const Pattern* find_pattern(const std::string& bottleneck);

}  // namespace aisp::profile
