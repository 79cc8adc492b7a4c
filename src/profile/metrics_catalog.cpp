#include "profile/metrics_catalog.hpp"

#include <cmath>

namespace aisp::profile {

const std::vector<std::string>& stall_reasons() {
  // long/short scoreboard and barrier are the seed's table; the rest are the other reasons ncu reports
  // that have a known fix (math_pipe_throttle means "already compute-bound", which is good news).
  static const std::vector<std::string> r = {"long_scoreboard", "short_scoreboard", "barrier", "membar",
                                             "mio_throttle", "lg_throttle", "math_pipe_throttle", "gmma", "wait",
                                             "not_selected", "no_instruction", "branch_resolving", "drain"};
  return r;
}

std::string stall_metric(const std::string& reason) { return std::string(m::stall_prefix) + reason + m::stall_suffix; }

const std::vector<FlopCounter>& flop_counters() {
  static const std::vector<FlopCounter> c = {
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1, "f32"},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1, "f32"},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 2, "f32"},
      {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 1, "f64"},
      {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 1, "f64"},
      {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 2, "f64"},
      {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 1, "f16"},
      {"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", 1, "f16"},
      {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 2, "f16"},
  };
  return c;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = [] {
    // minimal: the seed's five (profiler_config.py), duration as a sum so a multi-kernel run adds up.
    Preset minimal{"minimal", "duration, SM / DRAM / L2 throughput, achieved occupancy (the seed's five)",
                   {m::duration, m::sm_throughput, m::dram_throughput, m::l2_throughput, m::occupancy}};
    // roofline: + sm__cycles_active (seed), DRAM bytes and FP instruction counts, to place the kernel.
    Preset roofline{"roofline", "minimal + DRAM bytes, FP instruction counts, active cycles (roofline placement)",
                    minimal.metrics};
    for (const char* x : {m::sm_cycles_active, m::dram_read, m::dram_write}) roofline.metrics.push_back(x);
    for (auto& f : flop_counters()) roofline.metrics.push_back(f.metric);
    // deep_dive: + access pattern (sectors, requests, bytes used per sector), spills, bank conflicts,
    // stall reasons, occupancy limits, divergence, tensor pipe: everything the decision tree reads.
    Preset deep{"deep_dive", "roofline + memory access pattern, spills, bank conflicts, stall reasons, occupancy "
                             "limits (everything `profile bottleneck` reads)", roofline.metrics};
    for (const char* x : {m::mem_throughput, m::theoretical_occupancy, m::tensor_active, m::ld_sectors, m::ld_requests,
                          m::st_sectors, m::st_requests, m::ld_efficiency, m::st_efficiency, m::local_ld, m::local_st,
                          m::bank_conflicts_ld, m::bank_conflicts_st, m::shared_ld_wavefronts, m::registers, m::threads_per_inst,
                          "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
                          "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks"})
      deep.metrics.push_back(x);
    for (auto& r : stall_reasons()) deep.metrics.push_back(stall_metric(r));
    return std::vector<Preset>{minimal, roofline, deep};
  }();
  return p;
}

const Preset* find_preset(const std::string& name) {
  for (auto& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

bool preset_covers(const std::string& have, const std::string& need) {
  auto rank = [](const std::string& n) { return n == "minimal" ? 0 : n == "roofline" ? 1 : n == "deep_dive" ? 2 : -1; };
  return rank(have) >= 0 && rank(have) >= rank(need);
}

const char* level_name(Level l) {
  switch (l) {
    case Level::good: return "good";
    case Level::warning: return "warning";
    case Level::critical: return "critical";
    default: return "n/a";
  }
}

const std::vector<Threshold>& thresholds() {
  // Seed 001, "Key NCU Metrics": utilization (higher is better), stalls (lower is better), red flags.
  static const std::vector<Threshold> t = {
      {m::sm_throughput, "SM throughput", "compute utilization", true, 60, 30},
      {m::dram_throughput, "DRAM throughput", "memory bandwidth", true, 70, 40},
      {m::occupancy, "achieved occupancy", "warps resident / max", true, 50, 25},
      {m::tensor_active, "tensor pipe active", "tensor core utilization", true, 50, 20},
      {stall_metric("long_scoreboard"), "long-scoreboard stall", "waiting for L2/DRAM", false, 10, 30},
      {stall_metric("short_scoreboard"), "short-scoreboard stall", "waiting for L1/shared", false, 15, 30},
      {stall_metric("barrier"), "barrier stall", "sync overhead", false, 10, 25},
      // Red flags: any local-memory load is a spill; >1000 shared-load bank conflicts is the seed's line.
      {m::local_ld, "local (spill) load sectors", "register spills", false, 0, 0, "sector"},
      {m::bank_conflicts_ld, "shared-load bank conflicts", "bank conflicts", false, 1000, 1000, ""},
  };
  return t;
}

Level judge(const Threshold& t, double v) {
  if (!std::isfinite(v)) return Level::unknown;
  if (t.higher_is_better) return v > t.good ? Level::good : v < t.critical ? Level::critical : Level::warning;
  // Lower is better. A red flag (good == critical) has no warning band: over the line is critical.
  if (v > t.critical) return Level::critical;
  return v < t.good || t.good == t.critical ? Level::good : Level::warning;
}

const std::vector<Pattern>& optimization_patterns() {
  static const std::vector<Pattern> p = {
      {"memory_bound", "Memory bound",
       {"tiling / data reuse through shared memory", "vectorized loads (float4)", "async copy (cp.async, TMA)",
        "fuse neighbouring kernels to cut DRAM round trips", "lower precision storage (bf16/fp8) where accuracy allows"}},
      {"uncoalesced", "Uncoalesced global access",
       {"make consecutive lanes touch consecutive addresses", "stage strided accesses through shared memory "
        "(e.g. a tiled transpose)", "change the data layout (AoS -> SoA)"}},
      {"compute_bound", "Compute bound (good)",
       {"use tensor cores (bf16/fp16/fp8) instead of FP32 FMA", "cut instruction count (strength reduction, "
        "fast-math intrinsics)", "it is already near a roof: check the roofline before optimizing further"}},
      {"occupancy_limited", "Low occupancy",
       {"reduce registers / shared memory per block", "try block sizes 128/256/512", "__launch_bounds__"}},
      {"register_spills", "Register spills",
       {"reduce per-thread array sizes", "limit unrolling", "split the kernel", "__launch_bounds__ with fewer "
        "threads per block to give each thread more registers"}},
      {"bank_conflicts", "Shared-memory bank conflicts",
       {"pad shared memory (smem[N][M+1])", "swizzle the shared-memory layout"}},
      {"warp_divergence", "Warp divergence",
       {"sort data by operation", "use predication over branches"}},
      {"stall_long_scoreboard", "Long-scoreboard stalls (waiting for L2/DRAM)",
       {"prefetch", "async copy (cp.async, TMA) with multi-stage pipelining", "better locality"}},
      {"stall_barrier", "Barrier / membar stalls", {"reduce __syncthreads", "warp-level primitives (shuffles)"}},
      {"stall_membar", "Barrier / membar stalls", {"reduce memory fences", "warp-level primitives (shuffles)"}},
      {"stall_short_scoreboard", "Short-scoreboard stalls (L1/shared)", {"increase ILP", "unroll", "reorder"}},
      {"stall_math_pipe_throttle", "Math-pipe throttle", {"already compute-bound (good): use a faster pipe (tensor cores)"}},
      {"stall_gmma", "Waiting on wgmma (Hopper tensor-core MMA)", {"deeper producer/consumer pipelining so "
        "warpgroups overlap MMA with loads"}},
      {"stall_mio_throttle", "MIO throttle", {"fewer shared-memory instructions (wider accesses)", "avoid bank conflicts"}},
      {"stall_lg_throttle", "LG throttle (too many memory instructions)", {"wider (vectorized) global accesses", "fewer local-memory accesses"}},
      {"latency_bound", "Under-utilized (neither compute nor memory busy)",
       {"more parallel work per launch (bigger grid, batch small kernels)", "fuse small kernels to amortize "
        "launch overhead", "CUDA graphs for launch-bound sequences"}},
      {"balanced", "Compute and memory both busy", {"near the ridge point: only algorithmic changes (less traffic "
        "and fewer operations) still pay"}},
  };
  return p;
}

const Pattern* find_pattern(const std::string& bottleneck) {
  for (auto& p : optimization_patterns())
    if (p.bottleneck == bottleneck) return &p;
  return nullptr;
}

}  // namespace aisp::profile
