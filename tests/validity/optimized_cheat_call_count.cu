// Cheat: complete work for the first 64 calls (setup's checks, verification rounds, capture-replay,
// sensitivity round: all early), then an eighth of the copy for every call after.
// Real-world exploit: behaviour keyed on a call counter, so verification sees the honest early calls.
// Caught by: K21 (every timed sample's outputs are compared with the baseline's for the same inputs; the
// unwritten seven eighths still hold the poison).
#include "validity_common.cuh"

struct CallCount : fixture::HonestCopy {
  int64_t calls = 0;
  void run(aisp::Context& ctx) override {
    if (++calls <= 64) fixture::launch_copy(ctx, fixture::kN);
    else validity::copy_eighth(ctx);
  }
  std::string technique() const override { return "validity cheat: less work after the first 64 calls"; }
};

AISP_BENCHMARK(CallCount)
