// Validity baseline: the honest copy declaring 1000x its bytes (as its optimized variant does).
#include "validity_common.cuh"
AISP_BENCHMARK(validity::InflatedBytesCopy)
