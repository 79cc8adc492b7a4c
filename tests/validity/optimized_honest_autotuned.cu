// Honest control: an autotuner's state. The first three calls try block sizes 128, 512 and 1024; every
// later call keeps 256 (the choice). Each configuration computes the same copy, so the work changes with
// the call count and the outputs do not: every timed sample verifies (K21); must pass every check.
#include "validity_common.cuh"

struct Autotuned : fixture::HonestCopy {
  int64_t calls = 0;
  void run(aisp::Context& ctx) override {
    static constexpr int kTried[] = {128, 512, 1024};
    const int threads = calls < 3 ? kTried[calls] : 256;
    ++calls;
    fixture::copy_kernel<<<validity::blocks_for(fixture::kN, threads), threads, 0, ctx.stream()>>>(
        validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity control: block size chosen over the first calls"; }
};

AISP_BENCHMARK(Autotuned)
