// Supervisor-side validity rules on raw numbers: drain residual (K6), clock consistency (K7), plausibility
// ceilings (K17), the finding log and the checks[] list it produces.
#include <gtest/gtest.h>

#include "core/checks.hpp"
#include "core/plausibility.hpp"
#include "core/validity.hpp"

namespace aisp {
namespace {

TEST(DrainResidual, HonestResidualsPass) {
  FindingLog log;
  // The residuals measured on the lent H200: p50 2 us, p99 8 us, a rare 20 us.
  check_drain_residual({0.01, 0.01, 0.01, 0.01, 0.01}, {2, 3, 8, 20, 2}, log);
  EXPECT_FALSE(log.failed("K6"));
}

TEST(DrainResidual, WorkLeftOnAnotherStreamIsK6) {
  FindingLog log;
  check_drain_residual({0.01, 0.01, 0.01, 0.01}, {210, 220, 205, 2}, log);
  EXPECT_TRUE(log.failed("K6"));
  EXPECT_NE(log.details("K6").find("3 of 4"), std::string::npos);
}

TEST(DrainResidual, OneSlowHostSyncDoesNotFailARun) {
  FindingLog log;
  check_drain_residual({1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 900, 2, 2, 2, 2, 2}, log);
  EXPECT_FALSE(log.failed("K6"));
}

TEST(DrainResidual, ScalesWithTheSampleTime) {
  FindingLog log;
  // 10 ms samples: 300 us of residual is within 50 us + 5%.
  check_drain_residual({10, 10, 10}, {300, 300, 300}, log);
  EXPECT_FALSE(log.failed("K6"));
}

TEST(Clocks, EventTimeAboveWallTimeIsK7) {
  FindingLog log;
  check_clocks({1.0, 1.0}, {1.2, 0.5}, {}, log);
  EXPECT_TRUE(log.failed("K7"));
}

TEST(Clocks, BlockClaimingMoreThanTheSupervisorSawIsK7) {
  FindingLog ok, bad;
  check_clocks({1.0}, {1.1}, {{10.0, 30.0}}, ok);
  check_clocks({1.0}, {1.1}, {{50.0, 30.0}}, bad);
  EXPECT_FALSE(ok.any());
  EXPECT_TRUE(bad.failed("K7"));
}

TEST(FindingLog, KeepsDistinctDetailsAndCounts) {
  FindingLog log;
  for (int i = 0; i < 10; ++i) log.add("K8", "same");
  log.add("K8", "other");
  EXPECT_NE(log.details("K8").find("same; other"), std::string::npos);
  EXPECT_NE(log.details("K8").find("11 findings"), std::string::npos);
  log.add_json(json::array({{{"check", "K9"}, {"detail", "run() called cudaStreamCreate"}}}));
  EXPECT_TRUE(log.failed("K9"));
  EXPECT_NE(log.summary().find("K9: run() called"), std::string::npos);
}

TEST(AssembleChecks, OnlyChecksThatRanOrFailedAppearInRegistryOrder) {
  FindingLog log;
  log.add("K8", "work after the window");
  auto checks = assemble_checks(log, {{"K2", "1000 elements"}, {"K14", "isolated"}});
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].id, "K2");
  EXPECT_TRUE(checks[0].passed);
  EXPECT_EQ(checks[1].id, "K8");
  EXPECT_FALSE(checks[1].passed);
  EXPECT_EQ(checks[1].detail, "work after the window");
  EXPECT_EQ(checks[2].id, "K14");
}

TEST(CheckRegistry, IdsAreUniqueAndDescribed) {
  for (size_t i = 0; i < kChecks.size(); ++i) {
    EXPECT_FALSE(kChecks[i].name.empty());
    EXPECT_FALSE(kChecks[i].how.empty());
    for (size_t j = i + 1; j < kChecks.size(); ++j) EXPECT_NE(kChecks[i].id, kChecks[j].id);
  }
  EXPECT_NE(find_check("K8"), nullptr);
  EXPECT_EQ(find_check("K99"), nullptr);
}

DeviceInfo h100() {
  DeviceInfo d;
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm_clock_max_mhz = 1980;
  d.mem_clock_max_mhz = 2619;
  d.memory_bus_width_bits = 5120;
  d.l2_bytes = 50 << 20;
  return d;
}

TEST(Plausibility, CeilingsFromDeviceProperties) {
  Ceilings c = device_ceilings(h100(), DType::bf16);
  EXPECT_NEAR(c.dram_bytes_per_s / 1e12, 3.35, 0.01);  // H100 SXM HBM3 datasheet: 3.35 TB/s
  EXPECT_GT(c.flops_per_s / 1e12, 989);                // above the dense BF16 datasheet number
}

TEST(Plausibility, FastButPossibleIsFine) {
  Workload w;
  w.bytes = 2.0 * (1 << 30);  // 2 GiB moved in 0.7 ms = 3.07 TB/s
  EXPECT_FALSE(implausibility(w, 0.7, h100()).has_value());
}

TEST(Plausibility, AboveDramCeilingIsImplausible) {
  Workload w;
  w.bytes = 2.0 * (1 << 30);
  auto why = implausibility(w, 0.2, h100());  // 10.7 TB/s from DRAM
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("DRAM"), std::string::npos);
}

TEST(Plausibility, OnChipWorkloadsGetTheOnChipBound) {
  Workload w;
  w.bytes = 8 << 20;  // fits in L2
  EXPECT_FALSE(implausibility(w, 0.001, h100()).has_value());  // 8.4 TB/s: possible from L2
  EXPECT_TRUE(implausibility(w, 0.0001, h100()).has_value());  // 84 TB/s: not
}

TEST(Plausibility, FlopsAboveTheTensorPeakAreImplausible) {
  Workload w;
  w.precision = DType::bf16;
  w.flops = 2.0 * 8192.0 * 8192.0 * 8192.0;  // 1.1 TFLOP
  EXPECT_FALSE(implausibility(w, 1.5, h100()).has_value());  // 733 TFLOP/s
  EXPECT_TRUE(implausibility(w, 0.5, h100()).has_value());   // 2.2 PFLOP/s
}

}  // namespace
}  // namespace aisp
