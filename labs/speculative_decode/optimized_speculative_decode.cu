// labs/speculative_decode, gamma 4 (the lab's optimized variant, ch15's setting).
//
// Technique: speculate<4>: 5 queries per pass (ch15's target pass reads each query slice from shared
// memory once per 8 rows of W, so 5 queries stay under the W stream); (1 - 0.8^5) / 0.2 = 3.36 tokens per
// pass expected.
// Expected on Hopper: ~39 passes of ~27-30 us: ~1.1 ms, ~3x over plain decode.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 1.112 ms, 2.922x [2.812, 2.993], FASTER, 115k tokens/s (the best gamma of the lab).
#include "speculative_decode.cuh"

namespace {

class SpeculateGamma4 : public spec_lab::Speculate<4> {
 public:
  std::string technique() const override { return "speculative decoding, 4 draft tokens per target pass (acceptance 0.8)"; }
};

}  // namespace

AISP_BENCHMARK(SpeculateGamma4)
