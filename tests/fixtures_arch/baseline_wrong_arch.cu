// Fixture baseline for wrong_arch: the honest 1 Mi-float copy, built for the default architectures.
#include "../fixtures/fixture_copy.cuh"

AISP_BENCHMARK(fixture::HonestCopy)
