// Change-point detection on synthetic histories (the otava-test-data checklist: flat, step, two steps,
// outlier, a step hidden by the runs' own CIs, a tiny but certain step) and the median CI.
#include <gtest/gtest.h>

#include <cmath>

#include "core/change_points.hpp"

namespace aisp {
namespace {

// Levels with a deterministic +-0.5% wobble and a CI of +-`ci` (relative) around each point.
std::vector<SeriesPoint> series(const std::vector<double>& levels, double ci = 0.01) {
  std::vector<SeriesPoint> out;
  for (size_t i = 0; i < levels.size(); ++i) {
    double v = levels[i] * (1 + 0.005 * std::sin(static_cast<double>(i) * 1.7));
    out.push_back({v, v * (1 - ci), v * (1 + ci)});
  }
  return out;
}

TEST(ChangePoints, FlatSeriesHasNone) {
  EXPECT_TRUE(detect_change_points(series(std::vector<double>(12, 1.0))).empty());
  EXPECT_TRUE(detect_change_points({}).empty());
  EXPECT_TRUE(detect_change_points(series({1.0, 2.0, 1.0})).empty());
}

TEST(ChangePoints, FindsOneStepWhereItStarts) {
  auto cps = detect_change_points(series({1, 1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3}));
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 5u);
  EXPECT_NEAR(cps[0].rel_shift, 0.3, 0.02);
  EXPECT_NEAR(cps[0].before, 1.0, 0.01);
  EXPECT_NEAR(cps[0].after, 1.3, 0.02);
}

TEST(ChangePoints, FindsTwoSteps) {
  auto cps = detect_change_points(series({1, 1, 1, 1, 0.6, 0.6, 0.6, 0.6, 0.9, 0.9, 0.9, 0.9}));
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].index, 4u);
  EXPECT_LT(cps[0].rel_shift, -0.3);
  EXPECT_EQ(cps[1].index, 8u);
  EXPECT_GT(cps[1].rel_shift, 0.3);
}

TEST(ChangePoints, OneRunOutlierIsNotALevel) {
  EXPECT_TRUE(detect_change_points(series({1, 1, 1, 1, 2.5, 1, 1, 1, 1})).empty());
  // ...nor is a shift in the very last run (min_size 2): compare-runs is the tool for "latest vs previous".
  EXPECT_TRUE(detect_change_points(series({1, 1, 1, 1, 1, 1.5})).empty());
  ChangePointOptions o;
  o.min_size = 1;
  EXPECT_EQ(detect_change_points(series({1, 1, 1, 1, 1, 1.5}), o).size(), 1u);
}

TEST(ChangePoints, StepInsideTheRunsOwnCIsIsNotReported) {
  // A 10% step with every run's CI at +-15%: the runs cannot resolve it.
  EXPECT_TRUE(detect_change_points(series({1, 1, 1, 1, 1.1, 1.1, 1.1, 1.1}, 0.15)).empty());
  // The same step with tight CIs is reported.
  EXPECT_EQ(detect_change_points(series({1, 1, 1, 1, 1.1, 1.1, 1.1, 1.1}, 0.01)).size(), 1u);
}

TEST(ChangePoints, CertainButTinyStepIsBelowTheThreshold) {
  std::vector<SeriesPoint> s;
  for (int i = 0; i < 10; ++i) {
    double v = i < 5 ? 1.0 : 1.03;
    s.push_back({v, v * 0.999, v * 1.001});
  }
  EXPECT_TRUE(detect_change_points(s).empty());
  ChangePointOptions o;
  o.min_rel_shift = 0.02;
  EXPECT_EQ(detect_change_points(s, o).size(), 1u);
}

TEST(ChangePoints, NonFinitePointsAreSkippedAndIndicesMapBack) {
  auto s = series({1, 1, 1, 1, 1.5, 1.5, 1.5, 1.5});
  s.insert(s.begin() + 2, SeriesPoint{std::nan(""), 0, 0});  // a failed run in the history
  auto cps = detect_change_points(s);
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 5u);
}

TEST(ChangePoints, MissingCIsStillWork) {
  std::vector<SeriesPoint> s;
  for (int i = 0; i < 8; ++i) s.push_back({i < 4 ? 2.0 : 1.0, std::nan(""), std::nan("")});
  auto cps = detect_change_points(s);
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 4u);
}

TEST(MedianCI, OrderStatisticBounds) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  Interval ci = median_ci(v);
  EXPECT_DOUBLE_EQ(ci.point, 50.5);
  // n = 100, z = 1.96: ranks floor(50 - 9.8) = 40 and ceil(50 + 9.8) + 1 = 61.
  EXPECT_DOUBLE_EQ(ci.low, 40);
  EXPECT_DOUBLE_EQ(ci.high, 61);
  Interval small = median_ci({3, 1, 2});
  EXPECT_DOUBLE_EQ(small.low, 1);
  EXPECT_DOUBLE_EQ(small.high, 3);
  EXPECT_TRUE(std::isnan(median_ci({}).point));
}

}  // namespace
}  // namespace aisp
