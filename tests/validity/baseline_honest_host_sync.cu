// Validity baseline: the honest 1 Mi-float copy on the harness stream.
#include "validity_common.cuh"
AISP_BENCHMARK(fixture::HonestCopy)
