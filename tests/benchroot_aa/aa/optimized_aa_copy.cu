// A/A pair, "optimized": the very same copy kernel as the baseline (aa_copy.cuh); only its process differs.
#include "aa_copy.cuh"

struct SameAsBaseline : AaCopy {
  std::string technique() const override { return "none: A/A control, identical to the baseline"; }
};
AISP_BENCHMARK(SameAsBaseline)
