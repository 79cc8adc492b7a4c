#include "fidelity_copy.cuh"
AISP_BENCHMARK(fidelity::Copy10us)
