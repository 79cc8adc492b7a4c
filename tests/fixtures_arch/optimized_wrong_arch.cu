// Fixture: the same honest copy, but tests/CMakeLists.txt builds this plugin for sm_80 SASS only (no PTX),
// so nothing in it can run on Hopper. The worker's arch probe (aisp_plugin_probe_arch) must return
// cudaErrorNoKernelImageForDevice before any benchmark code runs, and the harness must report the variant
// as skipped/failed with "no kernel image for this device", not crash.
#include "../fixtures/fixture_copy.cuh"

AISP_BENCHMARK(fixture::HonestCopy)
