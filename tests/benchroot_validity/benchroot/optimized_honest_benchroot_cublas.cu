// Honest control (bench-root): the same single cuBLAS SGEMM as its baseline (an A/A pair), compiled on
// demand with cuBLAS linked as in-tree plugins link it: a user's cuBLAS plugin must pass every check.
// (Splitting the GEMM into two calls lets cuBLAS pick another kernel whose fp32 sums differ by more than
// the default tolerance: that would need the pair to declare a justified tolerance.)
#include "sgemm_pair.cuh"

struct SgemmAgain : benchroot::Sgemm {
  std::string technique() const override { return "bench-root control: the same cuBLAS SGEMM, compiled on demand"; }
};

AISP_BENCHMARK(SgemmAgain)
