// labs/speculative_decode, baseline: plain greedy decode, speculate<0> (speculative_decode.cuh).
//
// Technique: one persistent cooperative kernel, one target pass per token: W (64 MiB) streamed from HBM
// 128 times, a grid-wide argmax after each pass. No draft.
// Expected on Hopper: ~25-30 us per pass (ch15 measured 30.5 us with the earlier pass code), ~3.3-3.9 ms.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 3.251 ms, 39.4k tokens/s.
#include "speculative_decode.cuh"

namespace {

class PlainDecode : public spec_lab::Speculate<0> {
 public:
  std::string technique() const override { return "plain greedy decode: one target pass per token"; }
};

}  // namespace

AISP_BENCHMARK(PlainDecode)
