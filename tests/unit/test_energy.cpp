// Energy per run from per-block NVML counter deltas (core/energy).
#include <gtest/gtest.h>

#include "core/energy.hpp"

using nlohmann::json;

TEST(Energy, NoCounterMeansNoEstimate) {
  EXPECT_TRUE(aisp::energy_summary(json::object(), 1.0).is_null());
  json t = {{"power_w", {300.0}}, {"block_wall_ms", {25.0}}, {"block_gpu_ms", {20.0}}};
  EXPECT_TRUE(aisp::energy_summary(t, 1.0).is_null());
}

TEST(Energy, MeanPowerTimesMedian) {
  // Two blocks: 10 J over 40 ms and 5 J over 20 ms -> 15 J / 0.06 s = 250 W; a 2 ms run at 250 W = 0.5 J.
  json t = {{"energy_mj", {10000.0, 5000.0}}, {"block_wall_ms", {40.0, 20.0}}, {"block_gpu_ms", {30.0, 12.0}}};
  json e = aisp::energy_summary(t, 2.0);
  ASSERT_TRUE(e.is_object());
  EXPECT_DOUBLE_EQ(e["joules"].get<double>(), 15.0);
  EXPECT_NEAR(e["wall_s"].get<double>(), 0.06, 1e-12);
  EXPECT_NEAR(e["gpu_busy_s"].get<double>(), 0.042, 1e-12);
  EXPECT_NEAR(e["mean_power_w"].get<double>(), 250.0, 1e-9);
  EXPECT_NEAR(e["joules_per_run"].get<double>(), 0.5, 1e-12);
}

TEST(Energy, MisalignedSeriesAreRejected) {
  json t = {{"energy_mj", {10000.0}}, {"block_wall_ms", {40.0, 20.0}}};
  EXPECT_TRUE(aisp::energy_summary(t, 2.0).is_null());
}
