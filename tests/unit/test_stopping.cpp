#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/stats.hpp"
#include "core/stopping.hpp"

namespace aisp {
namespace {

// Feed samples until done (wall time held at 0 so only sample/noise criteria can fire).
template <typename Gen>
int64_t run_until_done(StdRelCriterion& c, Gen gen, int64_t cap = 1'000'000) {
  while (!c.done(0.0) && c.count() < cap) c.add(gen());
  return c.count();
}

TEST(StdRel, NoiseNeedsFiveSamples) {
  StdRelCriterion c;
  for (int i = 0; i < 4; ++i) c.add(1.0 + i);
  EXPECT_TRUE(std::isinf(c.noise()));
  c.add(5.0);
  Summary s = summarize({1, 2, 3, 4, 5});
  EXPECT_NEAR(c.noise(), s.rel_noise, 1e-12);
}

TEST(StdRel, WelfordMatchesTwoPassStatistics) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> d(1e-3, 2e-3);
  std::vector<double> v;
  StdRelCriterion c;
  for (int i = 0; i < 1000; ++i) {
    v.push_back(d(rng));
    c.add(v.back());
  }
  Summary s = summarize(v);
  EXPECT_NEAR(c.noise(), s.rel_noise, 1e-9);
  EXPECT_NEAR(c.total_s(), s.mean * 1000, 1e-12);
  EXPECT_EQ(c.count(), 1000);
}

TEST(StdRel, ConstantSeriesStopsWhenGpuTimeIsReached) {
  // 1/64 s is exact in binary, so 32 samples sum to exactly the 0.5 s minimum.
  StdRelCriterion c;
  EXPECT_EQ(run_until_done(c, [] { return 1.0 / 64; }), 32);
  EXPECT_EQ(c.reason(0.0), "noise 0.00% <= 0.50%");
}

TEST(StdRel, ConstantSeriesStopsAtMinSamplesWhenTimeIsCheap) {
  StoppingPolicy p;
  p.min_gpu_time_s = 0;
  StdRelCriterion c(p);
  EXPECT_EQ(run_until_done(c, [] { return 1e-3; }), 10);
}

TEST(StdRel, NoisySeriesDoesNotStopEarlyThenStabilizes) {
  StoppingPolicy p;
  p.min_gpu_time_s = 0;
  StdRelCriterion c(p);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> d(1e-3, 2e-3);  // ~19% noise, far above 0.5%
  for (int i = 0; i < 79; ++i) {
    c.add(d(rng));
    // The noise history needs more than 64 entries (n >= 69) and checks land on multiples of 16.
    ASSERT_FALSE(c.done(0.0)) << "stopped at n=" << c.count() << ": " << c.reason(0.0);
  }
  int64_t n = run_until_done(c, [&] { return d(rng); });
  EXPECT_LT(n, p.max_samples);
  EXPECT_EQ(n % 16, 0);
  EXPECT_GT(c.noise(), 0.1);
  EXPECT_TRUE(c.reason(0.0).starts_with("noise stable at ")) << c.reason(0.0);
}

TEST(StdRel, StableNoiseStillWaitsForMinimums) {
  StdRelCriterion c;  // 0.5 s minimum, samples of 1 us: stability alone must not stop it
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(1e-6, 2e-6);
  for (int i = 0; i < 5000; ++i) c.add(d(rng));
  EXPECT_FALSE(c.done(0.0));
  EXPECT_NE(c.reason(0.0).find("GPU time"), std::string::npos) << c.reason(0.0);
}

TEST(StdRel, SampleLimit) {
  StoppingPolicy p;
  p.max_samples = 20;
  StdRelCriterion c(p);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> d(1e-3, 2e-3);
  EXPECT_EQ(run_until_done(c, [&] { return d(rng); }), 20);
  EXPECT_TRUE(c.reason(0.0).starts_with("sample limit")) << c.reason(0.0);
}

// Sampling time counts whether or not samples were kept: a variant whose every sample is discarded as
// throttled once sampled forever (seen on an H100 with power-capped 2 ms GEMMs).
TEST(StdRel, TimeLimitStopsEvenWithNoSampleKept) {
  StdRelCriterion c;
  EXPECT_FALSE(c.done(14.9));
  EXPECT_TRUE(c.done(15.0));
  EXPECT_EQ(c.reason(15.0), "time limit 15.0 s with no sample kept (every one discarded)");
  c.add(0.1);
  c.add(0.2);
  EXPECT_FALSE(c.done(14.9));
  EXPECT_TRUE(c.done(15.0));
  EXPECT_EQ(c.reason(15.0), "time limit 15.0 s (noise n/a)");
  for (int i = 0; i < 3; ++i) c.add(0.15);
  EXPECT_TRUE(c.reason(20.0).starts_with("time limit 15.0 s (noise ")) << c.reason(20.0);
}

TEST(StdRel, ReasonNamesWhatIsUnmet) {
  StdRelCriterion c;
  for (int i = 0; i < 3; ++i) c.add(1e-3);
  std::string r = c.reason(0.0);
  EXPECT_NE(r.find("samples 3/10"), std::string::npos) << r;
  EXPECT_NE(r.find("GPU time"), std::string::npos) << r;
}

}  // namespace
}  // namespace aisp
