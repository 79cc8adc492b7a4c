// Leaderboards, Pareto frontier, trade-offs, what-if and roofline placement on synthetic data with
// answers computed by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_analysis_fixtures.hpp"

namespace an = aisp::analysis;
using namespace aisp::analysis::testing;

namespace {

std::vector<std::string> names(const std::vector<an::LeaderboardEntry>& v) {
  std::vector<std::string> out;
  for (auto& e : v) out.push_back(e.variant);
  return out;
}

}  // namespace

TEST(AnalysisPareto, MaximisesBothCoordinatesAndKeepsTies) {
  // A(2,10) B(3,5) C(1.5,20) D(1.8,8) E(3,5): D is dominated by A (faster and leaner); B and E tie.
  std::vector<std::pair<double, double>> p = {{2, 10}, {3, 5}, {1.5, 20}, {1.8, 8}, {3, 5}};
  std::vector<size_t> f = an::pareto_indices(p);
  EXPECT_EQ(f, (std::vector<size_t>{2, 0, 1, 4}));  // ordered by x: C, A, B, E
}

TEST(AnalysisPareto, IgnoresPointsWithoutBothFigures) {
  std::vector<std::pair<double, double>> p = {{2, 10}, {an::kNaN, 50}, {1, an::kNaN}};
  EXPECT_EQ(an::pareto_indices(p), (std::vector<size_t>{0}));
}

TEST(AnalysisPareto, OverVariantRowsUsesMemorySavingAgainstTheBaseline) {
  // Baseline peak 1000 MiB. fast: 4x at 1200 MiB (-20%); lean: 1.2x at 500 MiB (+50%); meh: 1.1x at 900 (+10%),
  // dominated by lean (faster and leaner).
  auto t = target("ch01:x", variant("baseline", 4.0, 1000),
                  {variant("fast", 1.0, 1200, 4.0, "FASTER"), variant("lean", 3.33, 500, 1.2, "FASTER"),
                   variant("meh", 3.6, 900, 1.1, "FASTER")});
  auto pts = an::pareto(an::variant_rows({t}));
  ASSERT_EQ(pts.size(), 3u);
  for (auto& p : pts) EXPECT_EQ(p.on_frontier, p.variant != "meh") << p.variant;
  EXPECT_NEAR(pts[0].memory_savings_pct, -20.0, 1e-9);
  EXPECT_NEAR(pts[1].memory_savings_pct, 50.0, 1e-9);
}

TEST(AnalysisLeaderboards, SpeedRanksByTheCiLowerEndAndExcludesInvalid) {
  auto wide = variant("wide", 1.0, 100, 3.0, "FASTER");
  wide.ci_low = 1.1, wide.ci_high = 5.0;  // a big point estimate with a weak lower end
  auto tight = variant("tight", 1.2, 100, 2.5, "FASTER");
  tight.ci_low = 2.4, tight.ci_high = 2.6;
  auto cheat = variant("cheat", 0.01, 100, 300.0, "INVALID");
  auto t = target("ch02:y", variant("baseline", 3.0, 100), {wide, tight, cheat});
  an::Leaderboards b = an::leaderboards(an::variant_rows({t}));
  EXPECT_EQ(names(b.speed), (std::vector<std::string>{"tight", "wide"}));
  ASSERT_EQ(b.excluded.size(), 1u);
  EXPECT_NE(b.excluded[0].find("cheat"), std::string::npos);
  EXPECT_NE(b.excluded[0].find("INVALID"), std::string::npos);
}

TEST(AnalysisLeaderboards, ThroughputIsItemsPerSecondGroupedByUnit) {
  // 1e6 items in 2 ms = 5e8 items/s; 1e6 in 1 ms = 1e9.
  auto t = target("ch03:z", variant("baseline", 2.0, 100), {variant("opt", 1.0, 100, 2.0, "FASTER")}, 0, 0, 1e6);
  an::Leaderboards b = an::leaderboards(an::variant_rows({t}));
  ASSERT_EQ(b.throughput.size(), 2u);
  EXPECT_EQ(b.throughput[0].variant, "opt");
  EXPECT_DOUBLE_EQ(b.throughput[0].value, 1e9);
  EXPECT_DOUBLE_EQ(b.throughput[1].value, 5e8);
  EXPECT_EQ(b.throughput[0].unit, "elements/s");
}

TEST(AnalysisLeaderboards, TopNCutsEachBoard) {
  std::vector<aisp::VariantResult> opts;
  for (int i = 1; i <= 5; ++i) opts.push_back(variant("v" + std::to_string(i), 1.0, 100, 1.0 + i, "FASTER"));
  auto t = target("ch04:w", variant("baseline", 5.0, 100), opts);
  EXPECT_EQ(an::leaderboards(an::variant_rows({t}), 3).speed.size(), 3u);
  EXPECT_EQ(an::leaderboards(an::variant_rows({t}), 0).speed.size(), 5u);
}

TEST(AnalysisRoofline, DeviceCeilingsAndPercentForADataMover) {
  an::DerivationInputs ctx;
  ctx.hardware = h100();
  an::RooflineCeilings c = an::roofline_ceilings(ctx.hardware, "f32");
  EXPECT_NEAR(c.dram_bytes_per_s, 2 * 2619e6 * 5120 / 8, 1);   // 3352.32 GB/s
  EXPECT_NEAR(c.flops_per_s, 2 * 128 * 132 * 1980e6, 1e3);     // 66.908 TFLOP/s
  EXPECT_FALSE(c.measured_bandwidth);
  EXPECT_NE(c.bandwidth_source.find("device properties"), std::string::npos);
  // Half the DRAM roof: 1676.16e6 bytes in 1 ms.
  auto t = target("ch07:copy", variant("baseline", 1.0, 100), {}, 2 * 2619e6 * 5120 / 8 / 2 / 1000);
  auto rows = an::variant_rows({t}, ctx);
  EXPECT_NEAR(rows[0].roofline_pct, 50.0, 1e-9);
  EXPECT_EQ(rows[0].bound, "memory");
}

TEST(AnalysisRoofline, MeasuredCeilingsWinAndComputeBoundKernelsUseThePeak) {
  an::DerivationInputs ctx;
  ctx.hardware = h100();
  ctx.hardware.capabilities = {{"hardware_key", "h100_80gb_hbm3"},
                               {"ceilings", {{"hbm_gbs", {{"value", 3000.0}}}, {"tflops_fp32", {{"value", 50.0}}}}}};
  ctx.hardware.capabilities_path = "caps.json";
  an::RooflineCeilings c = an::roofline_ceilings(ctx.hardware, "f32");
  EXPECT_TRUE(c.measured_bandwidth);
  EXPECT_TRUE(c.measured_compute);
  EXPECT_DOUBLE_EQ(c.flops_per_s, 50e12);
  // Intensity 100 FLOP/B > ridge 50e12/3e12 = 16.7: compute-bound. 25e9 FLOP in 1 ms = 25 TFLOP/s = 50%.
  auto t = target("ch01:gemm", variant("baseline", 1.0, 100), {}, 25e9 / 100, 25e9);
  auto rows = an::variant_rows({t}, ctx);
  EXPECT_EQ(rows[0].bound, "compute");
  EXPECT_NEAR(rows[0].roofline_pct, 50.0, 1e-9);
  // Intensity 1 FLOP/B: attainable 3 TFLOP/s; 1.5e9 FLOP in 1 ms = 1.5 TFLOP/s = 50% and memory-bound.
  auto m = target("ch01:axpy", variant("baseline", 1.0, 100), {}, 1.5e9, 1.5e9);
  rows = an::variant_rows({m}, ctx);
  EXPECT_EQ(rows[0].bound, "memory");
  EXPECT_NEAR(rows[0].roofline_pct, 50.0, 1e-9);
}

TEST(AnalysisRoofline, NoDeviceFactsMeansNoPercent) {
  auto t = target("ch07:copy", variant("baseline", 1.0, 100), {}, 1e9);
  auto rows = an::variant_rows({t});
  EXPECT_FALSE(an::known(rows[0].roofline_pct));
  EXPECT_TRUE(an::known(rows[0].bytes_per_s));
}

TEST(AnalysisTradeoffs, NamesEachKind) {
  auto t = target("ch05:t", variant("baseline", 2.0, 1000),
                  {variant("fat", 1.0, 1500, 2.0, "FASTER"), variant("thin", 4.0, 500, 0.5, "SLOWER"),
                   variant("bad", 4.0, 1500, 0.5, "SLOWER"), variant("win", 1.0, 500, 2.0, "FASTER")});
  auto tr = an::tradeoffs(an::variant_rows({t}));
  ASSERT_EQ(tr.size(), 3u);
  EXPECT_EQ(tr[0].variant, "fat");
  EXPECT_EQ(tr[0].kind, "faster, more memory");
  EXPECT_EQ(tr[1].kind, "less memory, slower");
  EXPECT_EQ(tr[2].kind, "worse on both");
}

TEST(AnalysisRecommendations, PerGoal) {
  auto t = target("ch06:r", variant("baseline", 2.0, 1000),
                  {variant("quick", 1.0, 1200, 2.0, "FASTER"), variant("small", 1.9, 400, 1.05, "SAME"),
                   variant("slow_small", 4.0, 100, 0.5, "SLOWER")});
  auto rec = an::recommendations(an::variant_rows({t}));
  auto pick = [&](const std::string& goal) {
    for (auto& r : rec)
      if (r.goal == goal) return r.variant;
    return std::string("?");
  };
  EXPECT_EQ(pick("speed"), "quick");
  EXPECT_EQ(pick("latency"), "quick");
  EXPECT_EQ(pick("memory"), "small");  // slow_small is leaner but SLOWER
  EXPECT_EQ(an::recommendations(an::variant_rows({t}), "memory").size(), 1u);
}

TEST(AnalysisWhatIf, FiltersOnMeasuredMemoryAndLatency) {
  // --vram 24 GiB = 24576 MiB; --latency 2 ms on p99 (= median x 1.1 in the fixture).
  auto t = target("ch09:w", variant("baseline", 3.0, 1000),
                  {variant("big", 1.0, 30000, 3.0, "FASTER"), variant("ok", 1.5, 20000, 2.0, "FASTER"),
                   variant("edge", 1.9, 1000, 1.58, "FASTER")});
  an::WhatIfConstraints c;
  c.max_vram_gb = 24;
  c.max_latency_ms = 2.0;
  an::WhatIf w = an::whatif(an::variant_rows({t}), c);
  std::vector<std::string> fit;
  for (auto& f : w.fits) fit.push_back(f.row.variant);
  EXPECT_EQ(fit, (std::vector<std::string>{"ok"}));  // edge: p99 2.09 ms > 2; baseline: p99 3.3 ms
  ASSERT_EQ(w.best_per_target.size(), 1u);
  EXPECT_NE(w.best_per_target[0].find("ok"), std::string::npos);
  // On the median, edge (1.9 ms) fits too, and is listed after the faster ok.
  c.latency_stat = "median";
  w = an::whatif(an::variant_rows({t}), c);
  ASSERT_EQ(w.fits.size(), 2u);
  EXPECT_EQ(w.fits[0].row.variant, "ok");
  EXPECT_EQ(w.fits[1].row.variant, "edge");
  for (auto& r : w.rejected)
    if (r.row.variant == "big") {
      ASSERT_EQ(r.violations.size(), 1u);
      EXPECT_NE(r.violations[0].find("30000 MiB > 24 GiB"), std::string::npos) << r.violations[0];
    }
}

TEST(AnalysisWhatIf, MinSpeedupAndThroughput) {
  auto t = target("ch09:v", variant("baseline", 2.0, 100), {variant("x2", 1.0, 100, 2.0, "FASTER")}, 0, 0, 1e6);
  an::WhatIfConstraints c;
  c.min_speedup = 1.5;
  c.min_throughput = 6e8;  // baseline 5e8 items/s, x2 1e9
  an::WhatIf w = an::whatif(an::variant_rows({t}), c);
  ASSERT_EQ(w.fits.size(), 1u);
  EXPECT_EQ(w.fits[0].row.variant, "x2");
  ASSERT_EQ(w.rejected.size(), 1u);
  EXPECT_EQ(w.rejected[0].violations.size(), 2u);
}
