// CPU tests of the hw probes' arithmetic: datasheet ceilings, clock-adjusted ceilings, units, goals and
// their verdicts, nccl-tests factors, size sweeps (src/probes/probe_math.hpp, header-only).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "probes/probe_math.hpp"

using namespace aisp::probes;

TEST(ProbesMath, DatasheetTensorAndVectorPeaksMatchTheH100Datasheet) {
  // hw_anchors §1: 132 SMs; tensor at 1830 MHz, FP32/FP64 at 1980 MHz.
  EXPECT_NEAR(tflops_at(132, per_sm::bf16_tc, 1830), 989.4, 0.1);
  EXPECT_NEAR(tflops_at(132, per_sm::fp8_tc, 1830), 1978.9, 0.1);
  EXPECT_NEAR(tflops_at(132, per_sm::tf32_tc, 1830), 494.7, 0.1);
  EXPECT_NEAR(tflops_at(132, per_sm::fp32_fma, 1980), 66.9, 0.1);
  EXPECT_NEAR(tflops_at(132, per_sm::fp64_fma, 1980), 33.5, 0.1);
  EXPECT_NEAR(tflops_at(132, per_sm::fp64_tc, 1980), 66.9, 0.1);
  Datasheet d = datasheet_for(Family::h100_sxm, 132, 1980, 2619, 5120);
  EXPECT_NEAR(d.tflops(per_sm::bf16_tc, true), 989.4, 0.1);
  EXPECT_NEAR(d.tflops(per_sm::fp32_fma, false), 66.9, 0.1);
  EXPECT_NEAR(d.smem_gbs(), 33454, 1);  // 128 B/clk/SM x 132 x 1.98 GHz
  EXPECT_DOUBLE_EQ(d.hbm_gbs, 3350);
  EXPECT_DOUBLE_EQ(d.pcie_gbs_per_dir, 63);
}

TEST(ProbesMath, HbmCeilingFromMemoryClockAndBusWidth) {
  EXPECT_NEAR(hbm_gbs_at(2619, 5120), 3352.3, 0.1);  // H100 SXM HBM3
  EXPECT_NEAR(hbm_gbs_at(3201, 6016), 4814.3, 0.1);  // H200 as its driver reports it
  EXPECT_FALSE(has(hbm_gbs_at(0, 5120)));
}

TEST(ProbesMath, PcieCeilingAccountsForLineEncoding) {
  EXPECT_NEAR(pcie_gbs_at(32.0, 16), 63.02, 0.01);  // Gen5: 128b/130b
  EXPECT_NEAR(pcie_gbs_at(2.5, 16), 4.0, 1e-9);     // Gen1: 8b/10b
  EXPECT_FALSE(has(pcie_gbs_at(kNaN, 16)));
}

TEST(ProbesMath, UnitsAreDecimal) {
  EXPECT_DOUBLE_EQ(gb_per_s(2e9, 1000), 2.0);        // 2e9 B in 1 s
  EXPECT_DOUBLE_EQ(tflop_per_s(1e12, 500), 2.0);     // 1e12 flop in 0.5 s
  EXPECT_DOUBLE_EQ(gemm_flops(2, 3, 4), 48);
  EXPECT_NEAR(cycles_to_ns(1980, 1980), 1000, 1e-9);
  EXPECT_FALSE(has(gb_per_s(1, 0)));
  EXPECT_NEAR(pct(3000, 3350), 89.55, 0.01);
  EXPECT_FALSE(has(pct(1, kNaN)));
}

TEST(ProbesMath, FamilyComesFromNameAndSmCount) {
  EXPECT_EQ(family_of("NVIDIA H100 80GB HBM3", 132), Family::h100_sxm);
  EXPECT_EQ(family_of("NVIDIA H100 PCIe", 114), Family::h100_pcie);
  EXPECT_EQ(family_of("NVIDIA H100 NVL", 132), Family::h100_pcie);
  EXPECT_EQ(family_of("NVIDIA H200", 132), Family::h200);
  EXPECT_EQ(family_of("NVIDIA GH200 480GB", 132), Family::gh200);
  EXPECT_EQ(family_of("NVIDIA A100-SXM4-80GB", 108), Family::other);
  // An unknown part gets ceilings derived from its own clocks, never H100 numbers.
  Datasheet d = datasheet_for(Family::other, 108, 1410, 1593, 5120);
  EXPECT_NEAR(d.hbm_gbs, 2039, 1);
  EXPECT_NEAR(d.tflops(per_sm::fp32_fma, false), tflops_at(108, 256, 1410), 1e-9);
}

TEST(ProbesMath, GoalsJudgeHigherLowerAndRanges) {
  Goal hbm = goal_higher(3000, 2850, "");
  EXPECT_EQ(judge(hbm, 3100, kNaN).status, "met");
  EXPECT_EQ(judge(hbm, 2900, kNaN).status, "warn");
  EXPECT_EQ(judge(hbm, 2800, kNaN).status, "short");
  EXPECT_NEAR(judge(hbm, 2850, kNaN).shortfall_pct, 5.0, 1e-9);
  EXPECT_DOUBLE_EQ(judge(hbm, 3100, kNaN).shortfall_pct, 0.0);

  Goal clk = goal_pct_clock(95, 90, "");
  EXPECT_EQ(judge(clk, 1.0, 96).status, "met");  // judged on % of the clock-adjusted ceiling, not the value
  EXPECT_EQ(judge(clk, 1e9, 92).status, "warn");

  Goal lat = goal_range(28.6 * 0.9, 28.6 * 1.1, "");
  EXPECT_EQ(judge(lat, 29.0, kNaN).status, "met");
  EXPECT_EQ(judge(lat, 23.0, kNaN).status, "short");
  EXPECT_NEAR(judge(lat, 23.0, kNaN).shortfall_pct, 100.0 * (25.74 - 23.0) / 25.74, 1e-6);

  Goal launch = goal_lower(2.5, 5.0, "");
  EXPECT_EQ(judge(launch, 2.0, kNaN).status, "met");
  EXPECT_EQ(judge(launch, 4.0, kNaN).status, "warn");
  EXPECT_EQ(judge(launch, 6.0, kNaN).status, "short");

  EXPECT_EQ(judge(Goal{}, 1.0, 1.0).status, "n/a");
  EXPECT_EQ(judge(hbm, kNaN, kNaN).status, "n/a");
}

TEST(ProbesMath, AnchorsCarryTheIssueGoals) {
  // Issue 5 / hw_anchors §8 goals, per family.
  EXPECT_DOUBLE_EQ(anchor_for("hbm_read", Family::h100_sxm).goal.pass, 3000);
  EXPECT_DOUBLE_EQ(anchor_for("hbm_read", Family::h200).goal.pass, 3900);
  EXPECT_DOUBLE_EQ(anchor_for("l2_read", Family::h100_sxm).goal.pass, 9000);
  EXPECT_DOUBLE_EQ(anchor_for("pcie_h2d_pinned", Family::h100_sxm).goal.pass, 54);
  EXPECT_DOUBLE_EQ(anchor_for("gemm_bf16", Family::h100_sxm).goal.pass, 770);
  EXPECT_DOUBLE_EQ(anchor_for("gemm_fp8_e4m3", Family::h100_sxm).goal.pass, 1385);
  EXPECT_DOUBLE_EQ(anchor_for("gemm_fp8_e4m3_fast", Family::h200).goal.pass, 1385);
  EXPECT_DOUBLE_EQ(anchor_for("gemm_tf32", Family::h200).goal.pass, 370);
  EXPECT_EQ(anchor_for("fma_fp32", Family::h100_sxm).goal.kind, Goal::Kind::higher_pct_clock);
  EXPECT_DOUBLE_EQ(anchor_for("smem_bw", Family::h100_sxm).goal.pass, 95);
  EXPECT_EQ(anchor_for("lat_dram", Family::h100_sxm).goal.kind, Goal::Kind::range);
  EXPECT_NEAR(anchor_for("lat_dram", Family::h100_sxm).goal.hi, 759, 1e-9);
  // No goal is invented for parts without public anchors.
  EXPECT_EQ(anchor_for("hbm_read", Family::other).goal.kind, Goal::Kind::none);
  EXPECT_EQ(anchor_for("no_such_figure", Family::h100_sxm).goal.kind, Goal::Kind::none);
}

TEST(ProbesMath, NcclBusBandwidthFactorsFollowNcclTests) {
  EXPECT_DOUBLE_EQ(nccl_busbw_factor("all_reduce", 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(nccl_busbw_factor("all_gather", 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(nccl_busbw_factor("reduce_scatter", 4), 3.0 / 4);
  EXPECT_DOUBLE_EQ(nccl_busbw_factor("broadcast", 8), 1.0);
  EXPECT_DOUBLE_EQ(nccl_busbw_factor("all_reduce", 1), 1.0);
}

TEST(ProbesMath, GeometricSizesAreAlignedIncreasingAndBounded) {
  auto v = geometric_sizes<std::vector<uint64_t>>(256 << 10, 64ull << 20, 4, 128 << 10);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.front(), 256u << 10);
  EXPECT_EQ(v.back(), 64ull << 20);
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i] % (128 << 10), 0u);
    if (i) EXPECT_GT(v[i], v[i - 1]);
  }
  EXPECT_GE(v.size(), 28u);  // 8 octaves x 4 + 1, less the small sizes that round to one aligned value
  EXPECT_NE(std::find(v.begin(), v.end(), uint64_t(4) << 20), v.end());  // powers of two land exactly
}
