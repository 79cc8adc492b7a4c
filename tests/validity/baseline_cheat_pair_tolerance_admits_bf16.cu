// Validity baseline: fp32 SGEMM whose pair declares a tolerance wide enough for bf16 (rtol 0.1, atol 1)
// while its workload still says fp32 precision.
#include "validity_common.cuh"

struct LooseFp32Sgemm : validity::HonestSgemm {
  aisp::Tolerance tolerance() const override { return validity::bf16_gemm_tolerance(); }
};

AISP_BENCHMARK(LooseFp32Sgemm)
