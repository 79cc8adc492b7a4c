#include "peer_kernels.cuh"
AISP_BENCHMARK(fidelity::Compute2ms)
