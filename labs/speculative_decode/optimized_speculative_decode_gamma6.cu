// labs/speculative_decode, gamma 6: past the knee.
//
// Technique: speculate<6>: 7 queries per pass; (1 - 0.8^7) / 0.2 = 3.95 tokens per pass expected, only 18%
// more than gamma 4, while a pass does 7/5 the FMAs and shared-memory query reads and keeps 56 sums per lane
// in registers: ptxas (CUDA 13.0, sm_90a) puts the kernel at the 128-register cap of 2 blocks per SM and
// spills 348 bytes, which gamma 4 does not. With acceptance 0.8 the gamma-th draft token adds
// 0.8^gamma tokens per pass: 0.41 at gamma 4, 0.33 at gamma 5, 0.26 at gamma 6.
// Expected on Hopper: ~33 passes, each dearer than gamma 4's (FMAs, query reads, spills): about gamma 4's
// time, the knee of the curve.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 1.643 ms, 1.978x [1.870, 2.043], FASTER, 77.9k tokens/s: past the knee, slower than gamma 4.
#include "speculative_decode.cuh"

namespace {

class SpeculateGamma6 : public spec_lab::Speculate<6> {
 public:
  std::string technique() const override { return "speculative decoding, 6 draft tokens per target pass (acceptance 0.8)"; }
};

}  // namespace

AISP_BENCHMARK(SpeculateGamma6)
