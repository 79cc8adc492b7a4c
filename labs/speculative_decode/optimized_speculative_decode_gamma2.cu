// labs/speculative_decode, gamma 2: two draft tokens verified per target pass.
//
// Technique: speculate<2>: 3 queries per pass; 1 + 0.8 + 0.64 = 2.44 tokens per pass expected.
// Expected on Hopper: ~53 passes: ~2.3x over plain decode.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 1.476 ms, 2.202x [2.121, 2.273], FASTER, 86.7k tokens/s.
#include "speculative_decode.cuh"

namespace {

class SpeculateGamma2 : public spec_lab::Speculate<2> {
 public:
  std::string technique() const override { return "speculative decoding, 2 draft tokens per target pass (acceptance 0.8)"; }
};

}  // namespace

AISP_BENCHMARK(SpeculateGamma2)
