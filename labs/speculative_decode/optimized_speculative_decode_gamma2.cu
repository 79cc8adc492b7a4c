// labs/speculative_decode, gamma 2: two draft tokens verified per target pass.
//
// Technique: speculate<2>: 3 queries per pass; 1 + 0.8 + 0.64 = 2.44 tokens per pass expected.
// Expected on Hopper: ~53 passes: ~2.3x over plain decode. Measured: not measured yet.
#include "speculative_decode.cuh"

namespace {

class SpeculateGamma2 : public spec_lab::Speculate<2> {
 public:
  std::string technique() const override { return "speculative decoding, 2 draft tokens per target pass (acceptance 0.8)"; }
};

}  // namespace

AISP_BENCHMARK(SpeculateGamma2)
