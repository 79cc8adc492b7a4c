// labs/speculative_decode, gamma 1: one draft token verified per target pass.
//
// Technique: speculate<1>: the draft proposes d1 after the last token d0; one pass dots every row of W with
// E[d0] and E[d1] (W read once) and emits 1 or 2 tokens.
// Why it is faster: a pass is bound by reading W, not by the second query's FMAs: 1 + 0.8 = 1.8 tokens per
// pass for ~the cost of one.
// Expected on Hopper: ~72 passes instead of 128: ~1.7x.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 1.904 ms, 1.708x [1.652, 1.742], FASTER, 67.2k tokens/s.
#include "speculative_decode.cuh"

namespace {

class SpeculateGamma1 : public spec_lab::Speculate<1> {
 public:
  std::string technique() const override { return "speculative decoding, 1 draft token per target pass (acceptance 0.8)"; }
};

}  // namespace

AISP_BENCHMARK(SpeculateGamma1)
