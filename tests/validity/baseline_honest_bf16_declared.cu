// Validity baseline: the fp32 reference of a pair whose workload declares bf16 precision and a tolerance
// to match (the legal form of what cheat_pair_tolerance_admits_bf16 does silently).
#include "validity_common.cuh"

struct Bf16PairReference : validity::HonestSgemm {
  aisp::Workload workload() const override {
    aisp::Workload w = validity::sgemm_workload();
    w.precision = aisp::DType::bf16;
    return w;
  }
  aisp::Tolerance tolerance() const override { return validity::bf16_gemm_tolerance(); }
};

AISP_BENCHMARK(Bf16PairReference)
