// Cheat: a static constructor, run by dlopen before the harness takes any snapshot, reserves the largest
// persisting-L2 carve-out the GPU allows. Snapshots taken around run() see the same carve-out before and
// after, so a comparison that starts after loading sees no change.
// Real-world exploit: process state arranged at load time (limits, carve-outs, math modes, threads).
// Caught by: K13 (state compared with a snapshot from before the plugin was loaded: the carve-out appears
// "after loading the plugin").
#include "validity_common.cuh"

namespace {
struct RaiseCarveOutAtLoad {
  RaiseCarveOutAtLoad() {
    int device = 0, max_bytes = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&max_bytes, cudaDevAttrMaxPersistingL2CacheSize, device) == cudaSuccess && max_bytes > 0)
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max_bytes));
    cudaGetLastError();
  }
} raise_at_load;
}  // namespace

struct LoadTimeState : fixture::HonestCopy {
  std::string technique() const override { return "validity cheat: persisting-L2 carve-out raised at load time"; }
};

AISP_BENCHMARK(LoadTimeState)
