#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
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

TEST(StudentT, QuantilesMatchTables) {
  // scipy.stats.t.ppf(q, df)
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736174698, 1e-8);
  EXPECT_NEAR(student_t_quantile(0.975, 3), 3.182446305284263, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.995, 10), 3.169272672616316, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 1000), 1.9623390808264074, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.025, 3), -3.182446305284263, 1e-9);
  EXPECT_DOUBLE_EQ(student_t_quantile(0.5, 7), 0.0);
  EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 3)));
}

// Each process of the same code gets its own fixed offset (sd 0.5% on the log scale) on top of sampling
// noise. One pair's bootstrap interval ignores the offsets and covers "no difference" far less than 95% of
// the time; widened by the spread that three more processes measure, it covers at least the nominal rate
// (the in-sample estimate with Student's t errs on the wide side). 300 trials: standard error ~1.3%.
TEST(ProcessSpread, WideningRestoresCoverageOfAnAaComparison) {
  std::mt19937 rng(7);
  std::normal_distribution<double> offset(0.0, 0.005);
  std::lognormal_distribution<double> noise(0.0, 0.01);
  int trials = 300, covered_pair = 0, covered_widened = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<std::vector<double>> procs(4);
    for (auto& p : procs) {
      double o = std::exp(offset(rng));
      for (int i = 0; i < 100; ++i) p.push_back(o * noise(rng));
    }
    Interval pair = bootstrap_speedup_ci(procs[0], procs[1], 0.95, 1000, 500 + t);
    Interval wide = widen_for_process_spread(pair, between_process_spread(procs, 200, 900 + t), 0.95);
    covered_pair += pair.low <= 1.0 && 1.0 <= pair.high;
    covered_widened += wide.low <= 1.0 && 1.0 <= wide.high;
    EXPECT_LE(wide.low, pair.low);
    EXPECT_GE(wide.high, pair.high);
  }
  EXPECT_LT(static_cast<double>(covered_pair) / trials, 0.6) << covered_pair << " of " << trials;
  EXPECT_GE(static_cast<double>(covered_widened) / trials, 0.93) << covered_widened << " of " << trials;
  std::printf("A/A coverage of 1.0: one pair %d/%d, widened %d/%d\n", covered_pair, trials, covered_widened, trials);
}

TEST(ProcessSpread, IdenticalProcessesHaveNoSpreadAndOneProcessMeasuresNothing) {
  std::mt19937 rng(3);
  std::lognormal_distribution<double> noise(0.0, 0.01);
  std::vector<std::vector<double>> procs(4);
  for (auto& p : procs)
    for (int i = 0; i < 2000; ++i) p.push_back(noise(rng));
  ProcessSpread s = between_process_spread(procs);
  EXPECT_EQ(s.df, 3);
  EXPECT_LT(s.sd_log, 0.0008);  // sampling noise of a median of 2000 is ~0.03%: at most a trace survives
  EXPECT_FALSE(between_process_spread({procs[0]}).measured());
  Interval ci{1.1, 1.05, 1.15};
  Interval same = widen_for_process_spread(ci, ProcessSpread{}, 0.95);
  EXPECT_DOUBLE_EQ(same.low, ci.low);
  EXPECT_DOUBLE_EQ(same.high, ci.high);
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
