// Sanitizer fixture baseline: the honest 1 Mi-float copy. `aisp profile sanitizer` must find it clean
// under memcheck, racecheck, synccheck and initcheck (tests/gpu/test_profile.cpp).
#include "fixtures/fixture_copy.cuh"

AISP_BENCHMARK(fixture::HonestCopy)
