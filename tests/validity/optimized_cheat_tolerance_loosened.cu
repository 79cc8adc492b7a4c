// Cheat: an fp32 GEMM computed on bf16 tensor cores, with the variant alone declaring a tolerance wide
// enough for bf16 (rtol 0.1, atol 1, "accumulation order"). The outside review measured this as FASTER
// 6.03x with every check passed while the harness took the optimized variant's tolerance.
// Real-world exploit: loosening the correctness bar in the file under test instead of the pair's contract.
// Caught by: K23 (a variant's tolerance must equal the pair's, i.e. the baseline's); the variant never
// gets to use its own, so K2 fails it against the fp32 default as well.
#include "validity_common.cuh"

struct ToleranceLoosened : validity::Bf16Sgemm {
  aisp::Tolerance tolerance() const override { return validity::bf16_gemm_tolerance(); }
  std::string technique() const override { return "validity cheat: bf16 GEMM that loosens its own tolerance"; }
};

AISP_BENCHMARK(ToleranceLoosened)
