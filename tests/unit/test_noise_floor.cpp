// The A/A noise floor: derived from an A/A run's intervals, stored per hardware key, read back, and
// corrupt files rejected with their name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json_io.hpp"
#include "core/noise_floor.hpp"
#include "core/stats.hpp"

namespace aisp {
namespace {

VariantResult aa_copy(const std::string& name, double low, double point, double high) {
  VariantResult v;
  v.name = name;
  v.samples_ms = {1, 1, 1};
  v.speedup = point;
  v.ci_low = low;
  v.ci_high = high;
  return v;
}

// A target with one A/A comparison and a baseline whose samples match the copy's (no between-process spread).
TargetResult aa_target(const std::string& id, double low, double point, double high) {
  TargetResult t;
  t.id = id;
  t.baseline.samples_ms = {1, 1, 1};
  t.optimizations.push_back(aa_copy("aa_self_1", low, point, high));
  return t;
}

TEST(NoiseFloor, FloorIsTheLargestDeviationInsideTheInterval) {
  NoiseFloor f = noise_floor_from_results({aa_target("ch07:a", 0.99, 1.0, 1.004), aa_target("ch07:b", 1.001, 1.002, 1.003)});
  ASSERT_EQ(f.targets.size(), 2u);
  EXPECT_NEAR(f.targets["ch07:a"].floor, 1.0 / 0.99 - 1.0, 1e-12);
  EXPECT_TRUE(f.targets["ch07:a"].contains_one());
  EXPECT_FALSE(f.targets["ch07:b"].contains_one());
  EXPECT_EQ(f.targets["ch07:b"].within_excluding_one(), 1);
  EXPECT_NEAR(f.targets["ch07:b"].floor, 0.003, 1e-12);
  EXPECT_DOUBLE_EQ(f.device_floor, f.targets["ch07:a"].floor);
  EXPECT_DOUBLE_EQ(f.floor_for("ch99:never_calibrated"), f.device_floor);
}

// Four processes whose medians differ by more than their own sampling noise: the spread is measured,
// every comparison's interval is widened by it, and the one that excluded 1.0 on its own now contains it.
TEST(NoiseFloor, CopiesInSeveralProcessesMeasureTheSpreadAndWidenEveryComparison) {
  auto process = [](double median) {
    std::vector<double> s;
    for (int i = 0; i < 200; ++i) s.push_back(median * (1.0 + 0.0001 * ((i * 37) % 11 - 5)));
    return s;
  };
  TargetResult t;
  t.id = "ch07:copy";
  t.baseline.samples_ms = process(1.000);
  double medians[] = {1.002, 0.999, 1.0015};
  for (int k = 0; k < 3; ++k) {
    VariantResult v = aa_copy("aa_self_" + std::to_string(k + 1), 0, 0, 0);
    v.samples_ms = process(medians[k]);
    Interval own = bootstrap_speedup_ci(t.baseline.samples_ms, v.samples_ms);
    v.speedup = own.point;
    v.ci_low = own.low;
    v.ci_high = own.high;
    t.optimizations.push_back(v);
  }
  NoiseFloor f = noise_floor_from_results({t});
  const NoiseFloorEntry& e = f.targets.at("ch07:copy");
  EXPECT_EQ(e.spread.df, 3);
  EXPECT_GT(e.spread.sd_log, 0.0005);
  EXPECT_LT(e.spread.sd_log, 0.003);
  ASSERT_EQ(e.comparisons.size(), 3u);
  EXPECT_EQ(e.within_excluding_one(), 3);  // each pair alone resolves its 0.1-0.2% shift
  for (auto& c : e.comparisons) {
    EXPECT_LT(c.widened.low, c.within.low);
    EXPECT_GT(c.widened.high, c.within.high);
    EXPECT_LE(c.widened.low, 1.0);
    EXPECT_GE(c.widened.high, 1.0);
  }
  EXPECT_TRUE(e.contains_one());
  EXPECT_EQ(f.spread_for("ch99:never_calibrated").sd_log, e.spread.sd_log);
}

TEST(NoiseFloor, TargetsWithoutSamplesAreLeftOut) {
  TargetResult failed = aa_target("ch07:x", 0.9, 1, 1.1);
  failed.optimizations[0].samples_ms.clear();
  EXPECT_TRUE(noise_floor_from_results({failed}).targets.empty());
}

TEST(NoiseFloor, RoundTripsThroughItsFile) {
  auto dir = std::filesystem::temp_directory_path() / "aisp_noise_floor_test";
  std::filesystem::remove_all(dir);
  NoiseFloor f = noise_floor_from_results({aa_target("ch01:gemm", 0.998, 1.0, 1.001)});
  f.hardware_key = "h100_80gb_hbm3";
  auto file = noise_floor_path(dir, f.hardware_key);
  EXPECT_EQ(file.filename(), "noise_floor_h100_80gb_hbm3.json");
  write_json_atomic(file, to_json(f));
  NoiseFloor back = load_noise_floor(file);
  EXPECT_EQ(back.hardware_key, "h100_80gb_hbm3");
  EXPECT_NEAR(back.floor_for("ch01:gemm"), f.floor_for("ch01:gemm"), 1e-12);
  EXPECT_EQ(back.targets.at("ch01:gemm").comparisons.size(), 1u);
  EXPECT_EQ(back.spread_for("ch01:gemm").df, f.spread_for("ch01:gemm").df);
  std::filesystem::remove_all(dir);
}

TEST(NoiseFloor, CalibratingSomeTargetsKeepsTheOthersOfTheSameGpu) {
  NoiseFloor older = noise_floor_from_results({aa_target("ch01:a", 0.98, 1.0, 1.02), aa_target("ch07:b", 0.99, 1.0, 1.01)});
  older.hardware_key = "h100_80gb_hbm3";
  NoiseFloor fresh = noise_floor_from_results({aa_target("ch07:b", 0.999, 1.0, 1.001)});
  fresh.hardware_key = "h100_80gb_hbm3";
  keep_older_targets(fresh, older);
  ASSERT_EQ(fresh.targets.size(), 2u);
  EXPECT_NEAR(fresh.floor_for("ch07:b"), 1 / 0.999 - 1, 1e-9);  // the new measurement wins
  EXPECT_NEAR(fresh.floor_for("ch01:a"), 1 / 0.98 - 1, 1e-9);  // the old one is kept
  EXPECT_NEAR(fresh.device_floor, 1 / 0.98 - 1, 1e-9);
  NoiseFloor other_gpu = noise_floor_from_results({aa_target("ch09:c", 0.9, 1.0, 1.1)});
  other_gpu.hardware_key = "h200";
  keep_older_targets(fresh, other_gpu);
  EXPECT_EQ(fresh.targets.count("ch09:c"), 0u);
}

TEST(NoiseFloor, CorruptOrForeignFilesNameTheFile) {
  auto dir = std::filesystem::temp_directory_path() / "aisp_noise_floor_bad";
  std::filesystem::create_directories(dir);
  auto truncated = dir / "truncated.json", foreign = dir / "foreign.json";
  std::ofstream(truncated) << "{\"kind\": \"aisp_noise_floor\", \"targets\": {";
  std::ofstream(foreign) << "{\"kind\": \"something_else\"}";
  for (auto& f : {truncated, foreign}) {
    try {
      load_noise_floor(f);
      FAIL() << "accepted " << f;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace aisp
