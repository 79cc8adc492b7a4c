// The synthetic request trace of aisp/request_trace.hpp: a pure function of the seed (so both variants of
// a pair get the same requests), arrivals in order, lengths inside the declared ranges.
#include <gtest/gtest.h>

#include "aisp/request_trace.hpp"

namespace aisp {

TEST(RequestTrace, SameSeedSameTraceOtherSeedOtherTrace) {
  TraceSpec s;
  auto a = generate_request_trace(42, s), b = generate_request_trace(42, s), c = generate_request_trace(43, s);
  ASSERT_EQ(a.size(), 64u);
  bool all_equal = true, any_differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    all_equal = all_equal && a[i].arrival_us == b[i].arrival_us && a[i].prompt_len == b[i].prompt_len &&
                a[i].output_len == b[i].output_len;
    any_differs = any_differs || a[i].prompt_len != c[i].prompt_len || a[i].arrival_us != c[i].arrival_us;
  }
  EXPECT_TRUE(all_equal);
  EXPECT_TRUE(any_differs);
}

TEST(RequestTrace, ArrivalsInOrderLengthsInRangeMeanGapAsDeclared) {
  TraceSpec s;
  s.requests = 4000;
  s.mean_interarrival_us = 100;
  s.prompt_min = 10;
  s.prompt_max = 20;
  s.output_min = 1;
  s.output_max = 3;
  auto t = generate_request_trace(7, s);
  EXPECT_EQ(t.front().arrival_us, 0);
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i].id, static_cast<int32_t>(i));
    if (i) EXPECT_GE(t[i].arrival_us, t[i - 1].arrival_us);
    EXPECT_GE(t[i].prompt_len, 10);
    EXPECT_LE(t[i].prompt_len, 20);
    EXPECT_GE(t[i].output_len, 1);
    EXPECT_LE(t[i].output_len, 3);
  }
  double mean_gap = static_cast<double>(t.back().arrival_us) / (t.size() - 1);
  EXPECT_NEAR(mean_gap, 100.0, 6.0);  // exponential gaps: sd of the mean over 4000 is ~1.6 us
}

TEST(RequestTrace, ZeroGapMeansEverythingArrivesAtOnce) {
  TraceSpec s;
  s.mean_interarrival_us = 0;
  for (auto& r : generate_request_trace(1, s)) EXPECT_EQ(r.arrival_us, 0);
}

}  // namespace aisp
