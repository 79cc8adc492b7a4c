// Pure arithmetic behind the `hw` probes: datasheet ceilings per SKU, clock-adjusted ceilings, the best
// public numbers (research/hw_anchors.md §8), goals and their verdicts, and small formula helpers.
// Header-only and CUDA-free so the CPU unit tests (tests/unit/test_probes_*.cpp) exercise it directly.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace aisp::probes {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline bool has(double v) { return std::isfinite(v); }

// ---- Units. Decimal everywhere, as every reference tool prints them (hw_anchors §9). ----
inline double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : kNaN; }
inline double tflop_per_s(double flops, double ms) { return ms > 0 ? flops / (ms * 1e-3) / 1e12 : kNaN; }
inline double pct(double value, double ceiling) { return has(value) && has(ceiling) && ceiling > 0 ? 100.0 * value / ceiling : kNaN; }
inline double gemm_flops(double m, double n, double k) { return 2.0 * m * n * k; }

// ---- Per-SM, per-clock rates of Hopper (GH100) SMs, dense. hw_anchors §1 derives each from the datasheet:
// FP32 = 128 FFMA lanes × 2, FP64 = 64 DFMA × 2, tensor rates = datasheet TFLOPS / (132 SMs × 1.83 GHz). ----
namespace per_sm {
inline constexpr double fp32_fma = 256, fp64_fma = 128, fp64_tc = 256;
inline constexpr double tf32_tc = 2048, bf16_tc = 4096, fp16_tc = 4096, fp8_tc = 8192, int8_tc = 8192;
inline constexpr double smem_bytes_per_clk = 128;  // 32 banks × 4 B
}  // namespace per_sm

// SMs × flop/clk/SM × clock → TFLOP/s.
inline double tflops_at(int sms, double flop_per_clk_per_sm, double mhz) {
  return sms > 0 && mhz > 0 ? sms * flop_per_clk_per_sm * mhz * 1e6 / 1e12 : kNaN;
}
// HBM is double data rate: memory clock × 2 × bus width / 8 (the cross-check of hw_anchors §1).
inline double hbm_gbs_at(double mem_mhz, int bus_bits) {
  return mem_mhz > 0 && bus_bits > 0 ? mem_mhz * 1e6 * 2.0 * bus_bits / 8.0 / 1e9 : kNaN;
}
// PCIe payload ceiling per direction: GT/s × lanes × encoding / 8 (128b/130b from Gen3 on, 8b/10b before).
inline double pcie_gbs_at(double gts, int lanes) {
  if (!(gts > 0) || lanes <= 0) return kNaN;
  double enc = gts >= 8.0 ? 128.0 / 130.0 : 0.8;
  return gts * lanes * enc / 8.0;
}
inline double cycles_to_ns(double cycles, double mhz) { return mhz > 0 ? cycles / mhz * 1e3 : kNaN; }

// ---- Which part is this? Keyed off the name *and* the SM count (hw_anchors pitfall 14). ----
enum class Family { h100_sxm, h100_pcie, h200, gh200, other };
inline Family family_of(const std::string& name, int sms) {
  auto has_sub = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (has_sub("GH200")) return Family::gh200;
  if (has_sub("H200")) return Family::h200;
  if (has_sub("H100") || has_sub("H800")) {
    if (has_sub("PCIe") || has_sub("NVL") || sms == 114) return Family::h100_pcie;
    if (sms == 132) return Family::h100_sxm;
  }
  return Family::other;
}
inline const char* family_name(Family f) {
  switch (f) {
    case Family::h100_sxm: return "H100 SXM";
    case Family::h100_pcie: return "H100 PCIe";
    case Family::h200: return "H200";
    case Family::gh200: return "GH200";
    default: return "unknown";
  }
}

// Datasheet ceilings (dense). Tensor figures assume 1830 MHz, FP32/FP64 1980 MHz on SXM parts (GK, MLE);
// for a part we do not know, everything is derived from the device's own max clock, SMs and bus.
struct Datasheet {
  std::string basis;  // where the numbers come from
  double compute_clock_mhz = kNaN, tensor_clock_mhz = kNaN;
  double hbm_gbs = kNaN, pcie_gbs_per_dir = kNaN, l2_gbs = kNaN;
  int sms = 0;
  double tflops(double flop_per_clk_per_sm, bool tensor) const {
    return tflops_at(sms, flop_per_clk_per_sm, tensor ? tensor_clock_mhz : compute_clock_mhz);
  }
  double smem_gbs() const { return tflops_at(sms, per_sm::smem_bytes_per_clk, compute_clock_mhz) * 1e3; }
};

inline Datasheet datasheet_for(Family f, int sms, double max_clock_mhz, double mem_clock_mhz, int bus_bits) {
  Datasheet d;
  d.sms = sms;
  switch (f) {
    case Family::h100_sxm:
      d = {"NVIDIA H100 SXM5 datasheet (dense; tensor @1830 MHz, FP32/FP64 @1980 MHz)", 1980, 1830, 3350, 63, 12000, sms};
      break;
    case Family::h200:
      d = {"NVIDIA H200 SXM datasheet (dense; tensor @1830 MHz, FP32/FP64 @1980 MHz)", 1980, 1830, 4800, 63, 12000, sms};
      break;
    case Family::gh200:
      d = {"GH200 (H100 die) — derived: device max clock, HBM from clock×bus", max_clock_mhz, max_clock_mhz,
           hbm_gbs_at(mem_clock_mhz, bus_bits), kNaN, kNaN, sms};
      break;
    case Family::h100_pcie:
      d = {"H100 PCIe — derived: device max clock, HBM from clock×bus, PCIe Gen5 x16", max_clock_mhz, max_clock_mhz,
           hbm_gbs_at(mem_clock_mhz, bus_bits), 63, kNaN, sms};
      break;
    default:
      d = {"unknown part — derived from the device's max clock, SM count and memory clock×bus width",
           max_clock_mhz, max_clock_mhz, hbm_gbs_at(mem_clock_mhz, bus_bits), kNaN, kNaN, sms};
  }
  return d;
}

// ---- Goals: how a figure is judged. `higher` = pass at ≥ pass, warn below warn; `range` = pass inside
// [lo, hi] (latencies: anchors ±10 %). basis selects what is compared: the value or % of the clock-adjusted
// ceiling. ----
struct Goal {
  enum class Kind { none, higher_value, higher_pct_clock, lower_value, range } kind = Kind::none;
  double pass = kNaN, warn = kNaN;  // thresholds (value units, or % for higher_pct_clock)
  double lo = kNaN, hi = kNaN;      // range goals
  std::string text;                 // human form, e.g. "≥ 3000 GB/s (90 % of 3350)"
};

struct Verdict {
  std::string status;  // "met", "warn", "short", "n/a"
  double shortfall_pct = kNaN;  // how far below the pass threshold (positive = short), for reports
};

inline Verdict judge(const Goal& g, double value, double pct_clock) {
  Verdict v{"n/a", kNaN};
  double x = g.kind == Goal::Kind::higher_pct_clock ? pct_clock : value;
  if (g.kind == Goal::Kind::none || !has(x)) return v;
  switch (g.kind) {
    case Goal::Kind::higher_value:
    case Goal::Kind::higher_pct_clock:
      v.shortfall_pct = 100.0 * (g.pass - x) / g.pass;
      v.status = x >= g.pass ? "met" : (has(g.warn) && x < g.warn ? "short" : "warn");
      break;
    case Goal::Kind::lower_value:
      v.shortfall_pct = 100.0 * (x - g.pass) / g.pass;
      v.status = x <= g.pass ? "met" : (has(g.warn) && x > g.warn ? "short" : "warn");
      break;
    case Goal::Kind::range:
      v.status = (x >= g.lo && x <= g.hi) ? "met" : "short";
      v.shortfall_pct = x < g.lo ? 100.0 * (g.lo - x) / g.lo : (x > g.hi ? 100.0 * (x - g.hi) / g.hi : 0.0);
      break;
    default: break;
  }
  if (v.shortfall_pct < 0) v.shortfall_pct = 0;
  return v;
}

inline Goal goal_higher(double pass, double warn, std::string text) {
  Goal g; g.kind = Goal::Kind::higher_value; g.pass = pass; g.warn = warn; g.text = std::move(text); return g;
}
inline Goal goal_pct_clock(double pass, double warn, std::string text) {
  Goal g; g.kind = Goal::Kind::higher_pct_clock; g.pass = pass; g.warn = warn; g.text = std::move(text); return g;
}
inline Goal goal_lower(double pass, double warn, std::string text) {
  Goal g; g.kind = Goal::Kind::lower_value; g.pass = pass; g.warn = warn; g.text = std::move(text); return g;
}
inline Goal goal_range(double lo, double hi, std::string text) {
  Goal g; g.kind = Goal::Kind::range; g.lo = lo; g.hi = hi; g.text = std::move(text); return g;
}

// ---- Best public numbers and goals per figure key (hw_anchors §8; only H100 SXM and H200 carry anchors). ----
struct Anchor {
  double best_public = kNaN;
  std::string source;
  Goal goal;
};

inline Anchor anchor_for(const std::string& key, Family f) {
  const bool h100 = f == Family::h100_sxm, h200 = f == Family::h200;
  const bool hopper = h100 || h200 || f == Family::gh200;
  Anchor a;
  if (key == "hbm_read" || key == "hbm_write" || key == "hbm_copy") {
    if (h100) {
      a = {3783, "GH200 (same die, HBM3) RRZE gpu-stream triad 94.6 %; no H100-SXM STREAM on record", {}};
      if (key == "hbm_read") a.goal = goal_higher(3000, 2850, ">= 3000 GB/s (90 % of 3350), warn < 85 %");
      if (key == "hbm_write") a.goal = goal_higher(3116, 2850, ">= 3116 GB/s (93 % of 3350)");
      if (key == "hbm_copy") a.goal = goal_higher(2948, 2850, ">= 2948 GB/s (88 % of 3350)");
    } else if (h200) {
      a = {3888, "RRZE gpu-l2-cache read-only DRAM plateau, H200 (81 %)",
           goal_higher(3900, 3744, ">= 3900 GB/s (81 % of 4800), warn < 78 %")};
    }
  } else if (key == "memcpy_d2d") {
    if (h100) a = {2515, "p2pBandwidthLatencyTest diagonal, HGX H100 (read+write counted)", {}};
  } else if (key == "l2_read") {
    if (h200) a = {10600, "RRZE gpu-l2-cache H200, 4–8 MB footprint", goal_higher(9000, 8000, ">= 9000 GB/s, warn < 8000")};
    else if (h100) a = {12000, "Hazy Research quote for H100 SXM (unofficial)", goal_higher(9000, 8000, ">= 9000 GB/s, warn < 8000")};
  } else if (key == "l2_read_rrze") {
    // Same schedule as the RRZE run (their loads allocate in L1, ours are L2-only); no goal of its own.
    if (hopper) a = {10600, "RRZE gpu-l2-cache H200, 4–8 MB (same schedule); no H100-SXM run on record", {}};
  } else if (key == "smem_bw") {
    if (hopper) a = {126, "RRZE gpu-strides H200, float stride 1 (98 %)", goal_pct_clock(95, 90, ">= 95 % of 128 B/clk/SM")};
  } else if (key == "lat_smem_index") {
    // The published number walks an index chain (address math inside the chain); our pure-address chain
    // (key lat_smem) has no public counterpart and carries no goal.
    if (hopper) a = {28.6, "'H100 SXM5' study @1.98 GHz", goal_range(28.6 * 0.9, 28.6 * 1.1, "28.6 cycles ±10 %")};
  } else if (key == "lat_l1") {
    if (hopper) a = {32, "RRZE gpu-latency GH200 (32) / study (40, address math in chain)", goal_range(32 * 0.9, 40 * 1.1, "32–40 cycles ±10 %")};
  } else if (key == "lat_l2") {
    if (hopper) a = {280.5, "RRZE gpu-latency GH200 near L2 (study: 259.9)", goal_range(260 * 0.9, 280 * 1.1, "260–280 cycles ±10 %")};
  } else if (key == "lat_dram") {
    if (hopper) a = {689, "RRZE GH200 680–689; study H100 570.5", goal_range(570 * 0.9, 690 * 1.1, "570–690 cycles ±10 %")};
  } else if (key == "pcie_h2d_pinned" || key == "pcie_d2h_pinned") {
    if (h100) a = {57.06, "nvbandwidth issue #6, H100 VM (CE)", goal_higher(54, 50, ">= 54 GB/s (85 % of 63), warn < 50")};
    else if (h200) a = {55.43, "stas00 ml-engineering, 8x H200 nvbandwidth", goal_higher(54, 50, ">= 54 GB/s (85 % of 63), warn < 50")};
  } else if (key == "pcie_h2d_sm") {
    if (h100) a = {35.4, "nvbandwidth issue #24, host_to_device_memcpy_sm", {}};
  } else if (key == "pcie_d2h_sm") {
    if (h100) a = {52.8, "nvbandwidth issue #24, device_to_host_memcpy_sm", {}};
  } else if (key == "gemm_bf16") {
    if (hopper) a = {797.5, "torch-performance-test-data #79 (H100); MAMF 794.5", goal_higher(770, 700, ">= 770 TFLOP/s, warn < 700")};
  } else if (key == "gemm_fp16") {
    if (hopper) a = {760.0, "torch-performance-test-data #79 (H100)", goal_higher(770, 700, ">= 770 TFLOP/s (BF16 goal), warn < 700")};
  } else if (key == "gemm_tf32") {
    if (hopper) a = {402.2, "torch-performance-test-data #79 (H100)", goal_higher(370, 320, ">= 370 TFLOP/s, warn < 320")};
  } else if (key == "gemm_fp8_e4m3" || key == "gemm_fp8_e4m3_fast") {
    if (h100) a = {1402.6, "MAMF finder H100 SXM (DeepGEMM H800: 1550)", goal_higher(1385, 1250, ">= 1385 TFLOP/s, warn < 1250")};
    else if (h200) a = {1453.4, "MAMF finder H200 SXM", goal_higher(1385, 1250, ">= 1385 TFLOP/s, warn < 1250")};
  } else if (key == "gemm_int8") {
    if (hopper) a = {kNaN, "no public anchor located", goal_higher(1286, 1187, ">= 65 % of 1979 TOP/s [unverified goal]")};
  } else if (key == "gemm_fp64") {
    if (hopper) a = {59, "HPL per GPU on Top500 H100/H200 systems (55–59)", goal_higher(53.5, 46.8, ">= 80 % of 66.9 TFLOP/s")};
  } else if (key.rfind("mma_", 0) == 0) {
    if (hopper) a = {kNaN, "not located", goal_pct_clock(90, 85, ">= 90 % of clock-adjusted peak [unverified goal]")};
  } else if (key == "fma_fp32" || key == "fma_fp64" || key == "dmma_fp64") {
    if (hopper) a = {kNaN, "no pure-FMA number located", goal_pct_clock(95, 90, ">= 95 % of clock-adjusted peak")};
  } else if (key == "launch_stream_period") {
    if (h200) a = {2.5, "RRZE gpu-small-kernels H200 (derived)", goal_lower(2.5, 5.0, "report; warn > 2x anchor")};
    else if (h100) a = {2.5, "RRZE gpu-small-kernels H200 (no H100 anchor)", goal_lower(2.5, 5.0, "report; warn > 2x anchor")};
  } else if (key == "launch_graph_period") {
    if (h100 || h200) a = {1.3, "RRZE gpu-small-kernels H200 graph (derived)", goal_lower(1.3, 2.6, "report; warn > 2x anchor")};
  } else if (key == "p2p_ce_uni") {
    if (h100) a = {380, "NCCL #1264 HGX H100", goal_higher(375, 350, ">= 375 GB/s")};
    else if (h200) a = {396.4, "stas00 8x H200 nvbandwidth", goal_higher(375, 350, ">= 375 GB/s")};
  } else if (key == "nccl_all_reduce" || key == "nccl_all_gather" || key == "nccl_reduce_scatter") {
    // NVLS stays off on shared machines, so the ring figure (not NVLS's ~480) is the reference.
    if (h100 || h200) a = {367.2, "stas00 8x H200 nccl-tests ring/NVLS-off (361-368)", goal_higher(350, 330, ">= 350 GB/s busbw (8 GPUs, ring)")};
  } else if (key == "p2p_ce_bidir") {
    if (h100 || h200) a = {783, "NCCL #1264 / stas00", goal_higher(740, 700, ">= 740 GB/s")};
  }
  return a;
}

// ---- nccl-tests bus-bandwidth factors (doc/PERFORMANCE.md): busbw = algbw × factor. ----
inline double nccl_busbw_factor(const std::string& coll, int nranks) {
  if (nranks <= 1) return 1.0;
  double n = nranks;
  if (coll == "all_reduce") return 2.0 * (n - 1) / n;
  if (coll == "all_gather" || coll == "reduce_scatter" || coll == "alltoall") return (n - 1) / n;
  return 1.0;  // broadcast, reduce, sendrecv
}

// Geometric size sweep [lo, hi] with `per_octave` points per doubling, each rounded down to `align`;
// duplicates (small sizes rounding to the same aligned value) are dropped; powers of two land exactly.
template <class Vec>
inline Vec geometric_sizes(uint64_t lo, uint64_t hi, int per_octave, uint64_t align) {
  Vec out;
  for (int i = 0;; ++i) {
    double s = static_cast<double>(lo) * std::pow(2.0, static_cast<double>(i) / per_octave);
    if (s > static_cast<double>(hi) * (1 + 1e-9)) break;
    uint64_t v = static_cast<uint64_t>(std::llround(s)) / align * align;
    if (v >= align && (out.empty() || v != out.back())) out.push_back(v);
  }
  return out;
}

}  // namespace aisp::probes
