// Honest control: the same fp32 SGEMM as the baseline, on the harness's cuBLAS handle (bound to
// ctx.stream(), math mode left as the harness pinned it). cuBLAS's own launches, workspace and kernel
// choice are ordinary library behaviour.
// Must pass every check (not faster than the baseline: failed_no_speedup is the expected status).
#include "validity_common.cuh"

struct HonestCublas : validity::HonestSgemm {
  std::string technique() const override { return "validity control: cuBLAS SGEMM, unchanged math mode"; }
};

AISP_BENCHMARK(HonestCublas)
