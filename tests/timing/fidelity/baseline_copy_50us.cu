#include "fidelity_copy.cuh"
AISP_BENCHMARK(fidelity::Copy50us)
