#include "fidelity_copy.cuh"
AISP_BENCHMARK(fidelity::Copy2ms)
