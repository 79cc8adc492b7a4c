// Cheat: after its first 64 calls (verification is over by then), an eighth of the copy on a random 60%
// of calls and the full copy on the rest. Enough to move the median; a harness that verifies a few
// random samples catches it only by luck. (Skipping at random from the first call is caught earlier, by
// the verification rounds' K1/K2, with probability 1 - 0.4^2.)
// Real-world exploit: work skipped on a fraction of calls, betting on sampled verification.
// Caught by: K21 (every timed sample verified).
#include <random>

#include "validity_common.cuh"

struct RandomFraction : fixture::HonestCopy {
  std::mt19937 rng{std::random_device{}()};
  int64_t calls = 0;
  void run(aisp::Context& ctx) override {
    if (++calls > 64 && std::uniform_real_distribution<double>(0, 1)(rng) < 0.6) validity::copy_eighth(ctx);
    else fixture::launch_copy(ctx, fixture::kN);
  }
  std::string technique() const override { return "validity cheat: less work on a random 60% of calls"; }
};

AISP_BENCHMARK(RandomFraction)
