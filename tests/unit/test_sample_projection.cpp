// K21's comparison (core/sample_projection): honest rounding within the tolerance passes, a sample that
// left elements unwritten, wrote zeros or computed part of the output fails. Projections are computed
// here on the host the way the device kernel does (random +-1 coefficients), so the bound is tested
// against the same statistics it has to hold for.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/sample_projection.hpp"
#include "core/tolerance_contract.hpp"

namespace aisp {
namespace {

OutputProjection project(const std::vector<double>& x, uint64_t key) {
  OutputProjection o;
  std::mt19937_64 coeff(key);
  for (double v : x) {
    uint64_t bits = coeff();
    if (!std::isfinite(v)) {
      o.nonfinite += 1;
      continue;
    }
    for (int k = 0; k < kProjections; ++k) o.proj[k] += (bits >> k) & 1 ? v : -v;
    o.abs_sum += std::abs(v);
    o.sq_sum += v * v;
  }
  return o;
}

std::vector<double> random_output(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(0, 3);
  std::vector<double> x(n);
  for (auto& v : x) v = d(rng);
  return x;
}

const std::vector<std::string> kNames = {"out"};

TEST(SampleProjection, HonestRoundingWithinToleranceAlwaysPasses) {
  const double rtol = 1e-3, atol = 1e-5;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    auto y = random_output(4096, trial);
    auto x = y;
    // Worst-case honest error: every element off by the full tolerance, random signs.
    for (auto& v : x) v += (rng() & 1 ? 1 : -1) * (atol + rtol * std::abs(v)) * 0.999;
    uint64_t key = rng();
    auto why = projection_mismatch({project(y, key)}, {project(x, key)}, {{rtol, atol, 4096}}, kNames);
    EXPECT_FALSE(why) << *why;
  }
}

TEST(SampleProjection, PartialWorkIsCaught) {
  const double rtol = 1e-3, atol = 1e-5;
  auto y = random_output(1 << 16, 3);
  auto partial = y;  // an eighth of the rows computed, the rest left from the poisoned buffer
  for (size_t i = partial.size() / 8; i < partial.size(); ++i) partial[i] = std::numeric_limits<double>::quiet_NaN();
  auto zeros = y;    // the rest written as zeros instead
  for (size_t i = zeros.size() / 8; i < zeros.size(); ++i) zeros[i] = 0;
  auto stale = random_output(1 << 16, 4);  // the previous sample's answer
  std::vector<ProjectionTolerance> tol = {{rtol, atol, 1 << 16}};
  EXPECT_TRUE(projection_mismatch({project(y, 11)}, {project(partial, 11)}, tol, kNames));
  EXPECT_TRUE(projection_mismatch({project(y, 11)}, {project(zeros, 11)}, tol, kNames));
  EXPECT_TRUE(projection_mismatch({project(y, 11)}, {project(stale, 11)}, tol, kNames));
}

TEST(SampleProjection, OnePercentOfElementsWrongIsCaughtAtBf16Tolerance) {
  auto y = random_output(1 << 16, 5);
  auto x = y;
  for (size_t i = 0; i < x.size(); i += 100) x[i] = -x[i];
  auto why = projection_mismatch({project(y, 21)}, {project(x, 21)}, {{1e-2, 1e-5, 1 << 16}}, kNames);
  EXPECT_TRUE(why);
}

TEST(SampleProjection, ExactOutputsNeedExactAgreement) {
  std::vector<double> y = {1, 2, 3, 4, 5, 6, 7, 8};
  auto x = y;
  x[3] = 5;
  EXPECT_FALSE(projection_mismatch({project(y, 1)}, {project(y, 1)}, {{0, 0, 8}}, kNames));
  // Four projections all blind to one element is a 1-in-16 event; a differing sum of |x| is not.
  auto why = projection_mismatch({project(y, 1)}, {project(x, 1)}, {{0, 0, 8}}, kNames);
  EXPECT_TRUE(why || project(y, 1).abs_sum != project(x, 1).abs_sum);
}

TEST(SampleProjection, JsonRoundTripKeepsNaNAsNaN) {
  OutputProjection o;
  o.proj = {1, std::nan(""), 3, 4};
  o.abs_sum = 5;
  auto back = sample_projection_from_json(to_json(SampleProjection{o}));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(std::isnan(back[0].proj[1]));
  EXPECT_EQ(back[0].proj[3], 4);
  // A NaN never compares within any bound.
  EXPECT_TRUE(projection_mismatch({o}, back, {{1, 1, 1}}, kNames));
}

TEST(SampleProjection, SeedsAreSharedAndDistinct) {
  EXPECT_EQ(sample_seed(42, 7), sample_seed(42, 7));
  EXPECT_NE(sample_seed(42, 7), sample_seed(42, 8));
  EXPECT_NE(sample_seed(42, 7), sample_seed(43, 7));
}

TEST(ToleranceContract, Bf16RoundingIsAdmittedOnlyByLooseTolerances) {
  std::vector<float> y(10000);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<float> d(-100, 100);
  for (auto& v : y) v = d(rng);
  // The cheat's tolerance from the outside review: rtol 0.1, atol 1.
  EXPECT_TRUE(probe_rounding(y.data(), 10000, DType::f32, {1e-1, 1.0}, DType::bf16).admits());
  // fp32 defaults and a summation-order loosening both reject it.
  EXPECT_FALSE(probe_rounding(y.data(), 10000, DType::f32, {1e-5, 1e-8}, DType::bf16).admits());
  EXPECT_FALSE(probe_rounding(y.data(), 10000, DType::f32, {1e-5, 2e-3}, DType::bf16).admits());
  EXPECT_EQ(rounding_to_refuse(DType::f32), DType::bf16);
  EXPECT_FALSE(rounding_to_refuse(DType::bf16));
}

TEST(ToleranceContract, RoundingMatchesTheFormats) {
  EXPECT_EQ(round_to(1.0 + 1.0 / 512, DType::bf16), 1.0);  // half an ulp of bf16 at 1: ties to even
  EXPECT_EQ(round_to(1.0 + 3.0 / 256, DType::bf16), 1.0 + 2.0 / 128);
  EXPECT_EQ(round_to(1.0 + 1.0 / 1024, DType::f16), 1.0 + 1.0 / 1024);
  EXPECT_TRUE(std::isinf(round_to(70000.0, DType::f16)));
  EXPECT_EQ(round_to(std::ldexp(1.0, -25), DType::f16), 0.0);  // below half the smallest subnormal
}

TEST(ToleranceContract, DifferenceNamesWhatDiffers) {
  Tolerance pair = Tolerance::loosened(1e-5, 2e-3, "summation order");
  EXPECT_EQ(tolerance_difference(pair, pair), "");
  std::string d = tolerance_difference(pair, Tolerance::loosened(1e-1, 1.0, "accumulation order"));
  EXPECT_NE(d.find("rtol 0.1"), std::string::npos) << d;
  EXPECT_NE(d.find("justification"), std::string::npos) << d;
}

}  // namespace
}  // namespace aisp
