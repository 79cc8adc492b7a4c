// A/A pair, baseline: the shared copy kernel (aa_copy.cuh).
#include "aa_copy.cuh"

struct Baseline : AaCopy {};
AISP_BENCHMARK(Baseline)
