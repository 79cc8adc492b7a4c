// Validity baseline: c = a + 1e-6 b.
#include "validity_common.cuh"
AISP_BENCHMARK(validity::AddSmall)
