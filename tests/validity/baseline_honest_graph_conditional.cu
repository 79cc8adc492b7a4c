// Validity baseline: the honest 1 Mi-float copy.
#include "validity_common.cuh"
AISP_BENCHMARK(fixture::HonestCopy)
