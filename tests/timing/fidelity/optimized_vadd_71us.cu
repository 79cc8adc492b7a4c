#include "peer_kernels.cuh"
AISP_BENCHMARK(fidelity::VectorAdd71us)
