// Validity baseline: fp32 cuBLAS SGEMM on ctx.cublas(), default math mode.
#include "validity_common.cuh"
AISP_BENCHMARK(validity::HonestSgemm)
