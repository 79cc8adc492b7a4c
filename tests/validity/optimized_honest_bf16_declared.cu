// Honest control: bf16 tensor-core GEMM in a pair whose shared workload declares bf16 precision and the
// tolerance that goes with it (both files declare the same). Must pass every check, K23 included.
#include "validity_common.cuh"

struct Bf16Declared : validity::Bf16Sgemm {
  aisp::Workload workload() const override {
    aisp::Workload w = validity::sgemm_workload();
    w.precision = aisp::DType::bf16;
    return w;
  }
  aisp::Tolerance tolerance() const override { return validity::bf16_gemm_tolerance(); }
  std::string technique() const override { return "validity control: bf16 GEMM in a pair that declares bf16"; }
};

AISP_BENCHMARK(Bf16Declared)
