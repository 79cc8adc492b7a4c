// Validity baseline: fp32 SGEMM 512^3 on cuBLAS, default fp32 tolerance.
#include "validity_common.cuh"
AISP_BENCHMARK(validity::HonestSgemm)
