// Cheat: times the gap since its previous call on the host clock. Checked runs are surrounded by dumps
// and device-wide syncs (milliseconds); timed samples follow each other within a few hundred microseconds.
// A long gap means "probably checked": full copy; a short one: an eighth of it.
// Real-world exploit: telling verification from timing by the rhythm of the calls.
// Caught by: K21 (every timed sample verified, whatever its gap).
#include <chrono>

#include "validity_common.cuh"

struct GapTiming : fixture::HonestCopy {
  std::chrono::steady_clock::time_point last{};
  void run(aisp::Context& ctx) override {
    auto now = std::chrono::steady_clock::now();
    bool long_gap = now - last > std::chrono::milliseconds(1);
    last = now;
    if (long_gap) fixture::launch_copy(ctx, fixture::kN);
    else validity::copy_eighth(ctx);
  }
  std::string technique() const override { return "validity cheat: less work when calls come quickly"; }
};

AISP_BENCHMARK(GapTiming)
