// The A/A noise floor: derived from an A/A run's intervals, stored per hardware key, read back, and
// corrupt files rejected with their name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json_io.hpp"
#include "core/noise_floor.hpp"

namespace aisp {
namespace {

TargetResult aa_target(const std::string& id, double low, double point, double high) {
  TargetResult t;
  t.id = id;
  VariantResult v;
  v.name = "aa_self";
  v.samples_ms = {1, 1, 1};
  v.speedup = point;
  v.ci_low = low;
  v.ci_high = high;
  t.optimizations.push_back(v);
  return t;
}

TEST(NoiseFloor, FloorIsTheLargestDeviationInsideTheInterval) {
  NoiseFloor f = noise_floor_from_results({aa_target("ch07:a", 0.99, 1.0, 1.004), aa_target("ch07:b", 1.001, 1.002, 1.003)});
  ASSERT_EQ(f.targets.size(), 2u);
  EXPECT_NEAR(f.targets["ch07:a"].floor, 1.0 / 0.99 - 1.0, 1e-12);
  EXPECT_TRUE(f.targets["ch07:a"].contains_one());
  EXPECT_FALSE(f.targets["ch07:b"].contains_one());
  EXPECT_NEAR(f.targets["ch07:b"].floor, 0.003, 1e-12);
  EXPECT_DOUBLE_EQ(f.device_floor, f.targets["ch07:a"].floor);
  EXPECT_DOUBLE_EQ(f.floor_for("ch99:never_calibrated"), f.device_floor);
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
  std::filesystem::remove_all(dir);
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
