// Bench-root baseline: the honest copy.
#include "copy_pair.cuh"
AISP_BENCHMARK(benchroot::Copy)
