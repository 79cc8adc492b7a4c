#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/stats.hpp"

namespace aisp {
namespace {

TEST(Percentile, MatchesNumpyLinearInterpolation) {
  // np.percentile([15, 20, 35, 40, 50], q) with the default "linear" method.
  std::vector<double> v{50, 15, 40, 20, 35};  // unsorted on purpose
  EXPECT_DOUBLE_EQ(percentile(v, 0), 15);
  EXPECT_DOUBLE_EQ(percentile(v, 30), 23);
  EXPECT_DOUBLE_EQ(percentile(v, 40), 29);
  EXPECT_DOUBLE_EQ(percentile(v, 50), 35);
  EXPECT_DOUBLE_EQ(percentile(v, 90), 46);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 50);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 25), 1.75);
  EXPECT_DOUBLE_EQ(percentile({7}, 99), 7);
  EXPECT_TRUE(std::isnan(percentile({}, 50)));
}

TEST(Median, OddEvenAndUnsorted) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({5, 5, 1, 9, 9, 9}), 7);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Summarize, KnownSample) {
  Summary s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_NEAR(s.stdev, 2.138089935299395, 1e-12);  // sample (n-1) stdev: sqrt(32/7)
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.p50, 4.5);
  EXPECT_NEAR(s.p10, 3.4, 1e-12);
  EXPECT_NEAR(s.p90, 7.6, 1e-12);
  EXPECT_NEAR(s.p99, 8.86, 1e-12);
  EXPECT_NEAR(s.rel_noise, 2.138089935299395 / 5, 1e-12);
}

TEST(Summarize, DegenerateInputs) {
  Summary e = summarize({});
  EXPECT_EQ(e.n, 0);
  Summary one = summarize({3.5});
  EXPECT_EQ(one.n, 1);
  EXPECT_DOUBLE_EQ(one.mean, 3.5);
  EXPECT_DOUBLE_EQ(one.stdev, 0);
  EXPECT_DOUBLE_EQ(one.p99, 3.5);
  EXPECT_DOUBLE_EQ(one.rel_noise, 0);
}

std::vector<double> normal_sample(double mean, double sd, int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(mean, sd);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

TEST(Bootstrap, CiContainsTrueRatioForShiftedNormals) {
  auto base = normal_sample(1.2, 0.02, 300, 1);
  auto cand = normal_sample(1.0, 0.02, 300, 2);
  Interval ci = bootstrap_speedup_ci(base, cand);
  EXPECT_DOUBLE_EQ(ci.point, median(base) / median(cand));
  EXPECT_LE(ci.low, ci.point);
  EXPECT_GE(ci.high, ci.point);
  EXPECT_LT(ci.low, 1.2);
  EXPECT_GT(ci.high, 1.2);
  EXPECT_GT(ci.low, 1.15);  // and it is tight: 300 samples at 2% noise pin the ratio well
  EXPECT_LT(ci.high, 1.25);
}

TEST(Bootstrap, DeterministicForSeedAndWiderAtHigherConfidence) {
  auto base = normal_sample(2.0, 0.2, 50, 3);
  auto cand = normal_sample(1.0, 0.1, 40, 4);
  Interval a = bootstrap_speedup_ci(base, cand, 0.95, 1000, 42);
  Interval b = bootstrap_speedup_ci(base, cand, 0.95, 1000, 42);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  Interval c = bootstrap_speedup_ci(base, cand, 0.95, 1000, 43);
  EXPECT_TRUE(a.low != c.low || a.high != c.high);
  Interval narrow = bootstrap_speedup_ci(base, cand, 0.5, 1000, 42);
  Interval wide = bootstrap_speedup_ci(base, cand, 0.99, 1000, 42);
  EXPECT_LT(wide.low, narrow.low);
  EXPECT_GT(wide.high, narrow.high);
}

TEST(Bootstrap, IdenticalConstantSamplesGiveExactOne) {
  Interval ci = bootstrap_speedup_ci({2, 2, 2, 2}, {2, 2, 2});
  EXPECT_DOUBLE_EQ(ci.point, 1);
  EXPECT_DOUBLE_EQ(ci.low, 1);
  EXPECT_DOUBLE_EQ(ci.high, 1);
  EXPECT_TRUE(std::isnan(bootstrap_speedup_ci({}, {1}).point));
}

// Coverage: over many independent experiments with a known true ratio of medians, the 95% percentile-
// bootstrap interval should contain it about 95% of the time. Skewed (lognormal) timings, n = 60 each,
// the size of a short interleaved run; 400 trials give a standard error of ~1.1%, so [91%, 98.5%] holds.
TEST(Bootstrap, NominalCoverageOnSkewedTimings) {
  std::mt19937 rng(2026);
  const double true_ratio = 1.3;  // median(base) / median(cand) = exp(mu_b - mu_c)
  std::lognormal_distribution<double> base_d(std::log(1.3), 0.05), cand_d(0.0, 0.05);
  int covered = 0, trials = 400;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> base(60), cand(60);
    for (double& x : base) x = base_d(rng);
    for (double& x : cand) x = cand_d(rng);
    Interval ci = bootstrap_speedup_ci(base, cand, 0.95, 2000, 1000 + t);
    covered += ci.low <= true_ratio && true_ratio <= ci.high;
  }
  double coverage = static_cast<double>(covered) / trials;
  EXPECT_GE(coverage, 0.91);
  EXPECT_LE(coverage, 0.985);
}

TEST(MannWhitney, ScipyDocumentationExample) {
  // scipy.stats.mannwhitneyu(males, females, method="asymptotic") -> pvalue=0.11134688653314041
  std::vector<double> males{19, 22, 16, 29, 24}, females{20, 11, 17, 12};
  EXPECT_NEAR(mann_whitney_p(males, females), 0.11134688653314041, 1e-12);
  EXPECT_NEAR(mann_whitney_p(females, males), 0.11134688653314041, 1e-12);  // two-sided: symmetric
}

TEST(MannWhitney, CompleteSeparationAndTies) {
  // U = 0, sigma^2 = 25*11/12, z = 12/sigma: p = erfc(z / sqrt 2).
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 0.012185780355344818, 1e-12);
  // Ties: ranks 1, 3,3,3, 5.5,5.5, 7.5,7.5; U = 2.5, tie term 36, sigma^2 = 16/12 * (9 - 36/56).
  EXPECT_NEAR(mann_whitney_p({1, 2, 2, 3}, {2, 3, 4, 4}), 0.13416918012812581, 1e-12);
}

TEST(MannWhitney, DegenerateInputs) {
  EXPECT_DOUBLE_EQ(mann_whitney_p({}, {1, 2}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2}, {}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({3, 3, 3}, {3, 3}), 1.0);  // all tied: zero variance
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2, 3}, {1, 2, 3}), 1.0);
}

}  // namespace
}  // namespace aisp
