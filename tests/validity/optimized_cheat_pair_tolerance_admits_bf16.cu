// Cheat: the pair itself loosens its tolerance to bf16 level (both files declare rtol 0.1, atol 1) while
// the workload declares fp32 precision, and the variant computes on bf16 tensor cores.
// Real-world exploit: a "summation order" justification stretched until a lower precision fits inside.
// Caught by: K23 (the baseline's own fp32 output rounded to bf16 passes that tolerance, so it cannot tell
// fp32 work from bf16 work; refused unless the workload declares bf16).
#include "validity_common.cuh"

struct PairToleranceAdmitsBf16 : validity::Bf16Sgemm {
  aisp::Tolerance tolerance() const override { return validity::bf16_gemm_tolerance(); }
  std::string technique() const override { return "validity cheat: bf16 GEMM under a pair tolerance too loose for fp32"; }
};

AISP_BENCHMARK(PairToleranceAdmitsBf16)
