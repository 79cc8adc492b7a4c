// Bench-root baseline: SGEMM 512^3 on the harness's cuBLAS handle, one call.
#include "sgemm_pair.cuh"
AISP_BENCHMARK(benchroot::Sgemm)
