#include "profile/bottleneck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "profile/metrics_catalog.hpp"

namespace aisp::profile {
namespace {

// Seed 001, step 1: SM > 60% and DRAM < 40% is compute bound, DRAM > 60% and SM < 40% memory bound, both
// < 40% sends the reader to occupancy and stalls.
constexpr double kBusy = 60, kIdle = 40;
// Step 2: occupancy < 25% is occupancy limited, a top stall > 30% is stall dominated, any local memory
// traffic is a spill.
constexpr double kLowOccupancy = 25, kDominantStall = 30;
// Ours: a global access using < 50% of each 32-byte sector it moves wastes more than half of the memory
// traffic it causes. A coalesced 4-, 8- or 16-byte-per-lane access uses 100%; a 2-way split uses 50%.
constexpr double kCoalescedMinPct = 50;
// Ours, on top of the seed's "> 1000 bank conflicts": the count grows with the problem size, so a
// conflict only matters when it adds >= 10% extra shared-load wavefronts (a padded tiled transpose of
// 8192^2 floats still counts ~60k "conflicts" on an H100, 3% of its wavefronts).
constexpr double kBankConflictCount = 1000, kBankConflictShare = 0.10;
// Ours: fewer than 24 of 32 lanes active per executed instruction on average is divergence worth a look.
constexpr double kDivergentThreads = 24;

Evidence ev(const KernelProfile& k, const std::string& metric, const std::string& label, const std::string& note = "") {
  Evidence e{metric, label, k.get(metric), "", note};
  auto it = k.metrics.find(metric);
  if (it != k.metrics.end()) e.unit = it->second.unit;
  return e;
}

Evidence derived(const std::string& label, double value, const std::string& unit, const std::string& note) {
  return Evidence{"", label, value, unit, note};
}

Finding make(const std::string& id, const std::string& title, const std::string& severity, const std::string& why) {
  Finding f{id, title, severity, why, {}, {}};
  if (const Pattern* p = find_pattern(id)) f.fixes = p->fixes;
  return f;
}

double sum2(const KernelProfile& k, const char* a, const char* b) {
  double x = k.get(a), y = k.get(b);
  if (!std::isfinite(x) && !std::isfinite(y)) return kNaN;
  return (std::isfinite(x) ? x : 0) + (std::isfinite(y) ? y : 0);
}

// The stall reason with the largest share of active warps (NaN share when no stall metric was collected).
std::pair<std::string, double> top_stall(const KernelProfile& k) {
  std::pair<std::string, double> best{"", kNaN};
  for (auto& r : stall_reasons()) {
    double v = k.get(stall_metric(r));
    if (std::isfinite(v) && (!std::isfinite(best.second) || v > best.second)) best = {r, v};
  }
  return best;
}

std::string pct(double v) { return std::isfinite(v) ? fmt::format("{:.1f}%", v) : "n/a"; }

}  // namespace

Diagnosis diagnose(const KernelProfile& k) {
  Diagnosis d;
  d.kernel = k.short_name();
  std::vector<Finding> primary, secondary;

  // Red flag first: spills cost DRAM traffic and latency whatever else the kernel does.
  double spills = sum2(k, m::local_ld, m::local_st);
  if (!std::isfinite(spills)) {
    d.not_evaluated.push_back("register spills (local-memory sectors not collected: use --preset deep_dive)");
  } else if (spills > 0) {
    Finding f = make("register_spills", "REGISTER SPILLS", "critical",
                     fmt::format("{:.0f} local-memory sectors moved: registers spill to local memory", spills));
    f.evidence = {ev(k, m::local_ld, "local load sectors", "> 0 is a spill (seed red flag)"),
                  ev(k, m::local_st, "local store sectors"), ev(k, m::registers, "registers per thread")};
    primary.push_back(f);
  }

  // Uncoalesced access: the access pattern wastes sector bytes (seed anti-pattern #1).
  double ld_eff = k.get(m::ld_efficiency), st_eff = k.get(m::st_efficiency);
  double ld_req = k.get(m::ld_requests), st_req = k.get(m::st_requests);
  auto used = [](double eff, double req) { return std::isfinite(eff) && std::isfinite(req) && req > 0; };
  if (!std::isfinite(ld_eff) && !std::isfinite(st_eff)) {
    d.not_evaluated.push_back("coalescing (bytes used per sector not collected: use --preset deep_dive)");
  } else {
    double worst = kCoalescedMinPct;
    std::string side;
    if (used(ld_eff, ld_req) && ld_eff < worst) worst = ld_eff, side = "load";
    if (used(st_eff, st_req) && st_eff < worst) worst = st_eff, side = "store";
    if (!side.empty()) {
      bool st = side == "store";
      double sectors = k.get(st ? m::st_sectors : m::ld_sectors), requests = st ? st_req : ld_req;
      Finding f = make("uncoalesced", "UNCOALESCED ACCESS", "critical",
                       fmt::format("global {}s use {} of each 32-byte sector they move ({:.1f} sectors per request): "
                                   "most of the memory traffic is wasted", side, pct(worst), sectors / requests));
      f.evidence = {ev(k, m::ld_efficiency, "global load bytes used per sector", fmt::format("< {:.0f}% is uncoalesced", kCoalescedMinPct)),
                    ev(k, m::st_efficiency, "global store bytes used per sector", fmt::format("< {:.0f}% is uncoalesced", kCoalescedMinPct)),
                    derived(fmt::format("global {} sectors per request", side), sectors / requests, "sector/request",
                            "a warp's 4-byte-per-lane access needs 4 (16 for float4)"),
                    ev(k, m::l2_throughput, "L2 throughput"), ev(k, m::dram_throughput, "DRAM throughput")};
      primary.push_back(f);
    }
  }

  // Step 1: utilization.
  double sm = k.get(m::sm_throughput), dram = k.get(m::dram_throughput);
  std::vector<Evidence> util = {ev(k, m::sm_throughput, "SM throughput", "compute bound above 60% with DRAM below 40%"),
                                ev(k, m::dram_throughput, "DRAM throughput", "memory bound above 60% with SM below 40%"),
                                ev(k, m::l2_throughput, "L2 throughput")};
  auto [stall, stall_pct] = top_stall(k);
  double occ = k.get(m::occupancy);
  if (!std::isfinite(sm) || !std::isfinite(dram)) {
    d.not_evaluated.push_back("utilization (SM/DRAM throughput not collected)");
  } else if (sm > kBusy && dram < kIdle) {
    Finding f = make("compute_bound", "COMPUTE BOUND", "info",
                     fmt::format("SM throughput {} with DRAM {}: the arithmetic units are the limit (good)", pct(sm), pct(dram)));
    f.evidence = util;
    f.evidence.push_back(ev(k, m::tensor_active, "tensor pipe active"));
    primary.push_back(f);
  } else if (dram > kBusy && sm < kIdle) {
    Finding f = make("memory_bound", "MEMORY BOUND", "warning",
                     fmt::format("DRAM throughput {} of peak with SM {}: the kernel moves bytes as fast as it can get "
                                 "them; only less traffic makes it faster", pct(dram), pct(sm)));
    f.evidence = util;
    f.evidence.push_back(ev(k, m::dram_read, "DRAM bytes read"));
    f.evidence.push_back(ev(k, m::dram_write, "DRAM bytes written"));
    primary.push_back(f);
  } else if (sm >= kBusy && dram >= kBusy) {
    Finding f = make("balanced", "COMPUTE AND MEMORY BOTH BUSY", "info",
                     fmt::format("SM {} and DRAM {}: near the ridge point", pct(sm), pct(dram)));
    f.evidence = util;
    primary.push_back(f);
  } else if (sm < kIdle && dram < kIdle) {
    // Step 2: both low. Occupancy, then the dominant stall, else too little work.
    if (std::isfinite(occ) && occ < kLowOccupancy) {
      Finding f = make("occupancy_limited", "OCCUPANCY LIMITED",
                       "warning", fmt::format("SM {} and DRAM {} are both low and only {} of the warp slots are occupied",
                                              pct(sm), pct(dram), pct(occ)));
      f.evidence = util;
      for (auto* x : {m::occupancy, m::theoretical_occupancy, m::registers})
        f.evidence.push_back(ev(k, x, x == m::occupancy ? "achieved occupancy" : x == m::registers ? "registers per thread"
                                                                                                  : "theoretical occupancy",
                                x == m::occupancy ? "< 25% is occupancy limited" : ""));
      for (auto* x : {"launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps"})
        f.evidence.push_back(ev(k, x, std::string(x).substr(8), "blocks per SM this resource allows"));
      primary.push_back(f);
    } else if (std::isfinite(stall_pct) && stall_pct > kDominantStall) {
      Finding f = make("stall_" + stall, "STALL DOMINATED (" + stall + ")", "warning",
                       fmt::format("SM {} and DRAM {} are both low; warps spend {} of their time stalled on {}",
                                   pct(sm), pct(dram), pct(stall_pct), stall));
      f.evidence = util;
      f.evidence.push_back(ev(k, stall_metric(stall), stall + " stall", "> 30% dominates"));
      f.evidence.push_back(ev(k, m::occupancy, "achieved occupancy"));
      primary.push_back(f);
    } else {
      Finding f = make("latency_bound", "UNDER-UTILIZED", "warning",
                       fmt::format("SM {} and DRAM {} are both low with no dominant stall{}: too little parallel work, "
                                   "or launch/latency bound", pct(sm), pct(dram),
                                   std::isfinite(stall_pct) ? "" : " measured (stall reasons not collected)"));
      f.evidence = util;
      f.evidence.push_back(ev(k, m::occupancy, "achieved occupancy"));
      f.evidence.push_back(ev(k, m::duration, "duration"));
      primary.push_back(f);
    }
  } else {
    // Between the seed's lines (one unit 40-60%): lean to the busier side, and say so.
    bool mem = dram >= sm;
    Finding f = make(mem ? "memory_bound" : "compute_bound", mem ? "LEANING MEMORY BOUND" : "LEANING COMPUTE BOUND",
                     "info", fmt::format("SM {} and DRAM {}: between the decision tree's 40%/60% lines; the {} side is busier",
                                         pct(sm), pct(dram), mem ? "memory" : "compute"));
    f.evidence = util;
    primary.push_back(f);
  }

  // Secondary observations: a dominant stall under a compute/memory verdict, bank conflicts, divergence.
  if (std::isfinite(stall_pct) && stall_pct > kDominantStall &&
      std::none_of(primary.begin(), primary.end(), [&](const Finding& f) { return f.id == "stall_" + stall; })) {
    Finding f = make("stall_" + stall, "top stall: " + stall, "info",
                     fmt::format("warps spend {} of their time stalled on {}", pct(stall_pct), stall));
    f.evidence = {ev(k, stall_metric(stall), stall + " stall", "> 30% dominates")};
    secondary.push_back(f);
  } else if (!std::isfinite(stall_pct)) {
    d.not_evaluated.push_back("stall reasons (not collected: use --preset deep_dive)");
  }
  double conflicts = sum2(k, m::bank_conflicts_ld, m::bank_conflicts_st), wavefronts = k.get(m::shared_ld_wavefronts);
  if (std::isfinite(conflicts) && conflicts > kBankConflictCount &&
      (!std::isfinite(wavefronts) || wavefronts <= 0 || conflicts / wavefronts >= kBankConflictShare)) {
    Finding f = make("bank_conflicts", "BANK CONFLICTS", "warning",
                     fmt::format("{:.0f} shared-memory bank conflicts{}", conflicts,
                                 std::isfinite(wavefronts) && wavefronts > 0
                                     ? fmt::format(" ({:.0f}% extra shared-load wavefronts)", 100 * conflicts / wavefronts) : ""));
    f.evidence = {ev(k, m::bank_conflicts_ld, "shared-load bank conflicts", "> 1000 (seed)"),
                  ev(k, m::bank_conflicts_st, "shared-store bank conflicts"),
                  ev(k, m::shared_ld_wavefronts, "shared-load wavefronts", ">= 10% extra matters")};
    secondary.push_back(f);
  }
  double threads = k.get(m::threads_per_inst);
  if (std::isfinite(threads) && threads < kDivergentThreads) {
    Finding f = make("warp_divergence", "WARP DIVERGENCE", "warning",
                     fmt::format("{:.1f} of 32 lanes active per executed instruction on average", threads));
    f.evidence = {ev(k, m::threads_per_inst, "threads per instruction", "< 24 of 32")};
    secondary.push_back(f);
  }

  d.findings = primary;
  d.findings.insert(d.findings.end(), secondary.begin(), secondary.end());
  d.verdict = d.findings.empty() ? "unknown" : d.findings.front().id;
  return d;
}

}  // namespace aisp::profile
