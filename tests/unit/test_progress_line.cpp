// The suite's time estimate on the progress line (issue 21): elapsed and remaining from finished targets.
#include <gtest/gtest.h>

#include "runner/progress_line.hpp"

namespace aisp {

TEST(ProgressLine, ShortDurations) {
  EXPECT_EQ(short_duration(0.4), "0s");
  EXPECT_EQ(short_duration(42), "42s");
  EXPECT_EQ(short_duration(187), "3m07s");
  EXPECT_EQ(short_duration(3720), "1h02m");
  EXPECT_EQ(short_duration(-5), "0s");
}

TEST(ProgressLine, NoEstimateBeforeTheFirstTargetFinishes) {
  EXPECT_EQ(elapsed_and_remaining(12, 0, 10), "elapsed 12s");
}

TEST(ProgressLine, RemainingIsTheMeanPerFinishedTargetTimesTheRest) {
  // 4 of 10 done in 60 s: 15 s each, 6 left -> 90 s.
  EXPECT_EQ(elapsed_and_remaining(60, 4, 10), "elapsed 1m00s, ~1m30s left");
}

TEST(ProgressLine, NothingLeftOnceAllFinished) {
  EXPECT_EQ(elapsed_and_remaining(95, 10, 10), "elapsed 1m35s");
}

}  // namespace aisp
