// Pooling replicates of one comparison (core/replicate_pool.hpp): the numbers below are worked by hand
// from the model (geometric mean; t with R - 1 df; t(0.975, 2) = 4.302652729911275; for df = 2 the t CDF
// is 1/2 + t / (2 sqrt(2 + t^2))).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/replicate_pool.hpp"

namespace aisp {
namespace {

TEST(ReplicatePool, SpreadBetweenReplicatesSetsTheInterval) {
  // Points 1, 2, 4 with tight own intervals: log points 0, ln2, 2 ln2, sd ln2, se ln2 / sqrt(3).
  PooledInterval p = pool_replicates({{1, 0.99, 1.01}, {2, 1.98, 2.02}, {4, 3.96, 4.04}});
  EXPECT_NEAR(p.interval.point, 2.0, 1e-12);
  EXPECT_NEAR(p.interval.low, 0.35746212356632706, 1e-9);
  EXPECT_NEAR(p.interval.high, 11.189996747327557, 1e-9);
  EXPECT_NEAR(p.p_value, 0.2254033307585167, 1e-9);  // t = sqrt(3), df 2
  EXPECT_NEAR(p.between_sd, std::log(2.0), 1e-12);
}

TEST(ReplicatePool, AgreeingReplicatesKeepTheirOwnErrorAsAFloor) {
  // Identical points have no spread; the interval is then their own error / sqrt(R), still with t(2).
  PooledInterval p = pool_replicates({{2, 1.9, 2.1}, {2, 1.9, 2.1}, {2, 1.9, 2.1}});
  EXPECT_DOUBLE_EQ(p.between_sd, 0.0);
  EXPECT_NEAR(p.interval.low, 1.8770891767113935, 1e-9);
  EXPECT_NEAR(p.interval.high, 2.130958960089411, 1e-9);
  EXPECT_LT(p.p_value, 1e-3);
}

TEST(ReplicatePool, OneReplicateIsItsOwnIntervalAndNoneIsEmpty) {
  PooledInterval one = pool_replicates({{1.5, 1.4, 1.6}});
  EXPECT_DOUBLE_EQ(one.interval.point, 1.5);
  EXPECT_DOUBLE_EQ(one.interval.low, 1.4);
  EXPECT_DOUBLE_EQ(one.interval.high, 1.6);
  EXPECT_DOUBLE_EQ(pool_replicates({}).interval.point, 0.0);
}

TEST(ReplicatePool, RefusesNonPositiveValues) {
  EXPECT_THROW(pool_replicates({{0, 0, 1}, {1, 0.9, 1.1}}), std::invalid_argument);
  EXPECT_THROW(pool_replicates({{1, 1.2, 1.1}}), std::invalid_argument);
}

}  // namespace
}  // namespace aisp
