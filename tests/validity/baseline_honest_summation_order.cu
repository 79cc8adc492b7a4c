// Validity baseline: row sum, sequential order.
#include "validity_common.cuh"
AISP_BENCHMARK(validity::SequentialRowSum)
