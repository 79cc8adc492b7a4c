// ch11 mempool_release_threshold, optimized: the same pool with its release threshold at UINT64_MAX.
//
// Technique: one cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX) in setup():
// freed blocks stay mapped in the pool across synchronizations, so every iteration's cudaMallocFromPoolAsync
// is a host-side bookkeeping call that hands back memory the pool already holds (what PyTorch's caching
// allocator does for the same reason).
// Why it is faster: no physical allocation and page-table update per iteration; the first kernel starts as
// soon as it is launched. The cost is footprint: the pool keeps its high-water mark (192 MiB here) until it
// is trimmed explicitly (cudaMemPoolTrimTo) or destroyed.
// Expected on Hopper: the kernels' ~0.23 ms. Measured (H100 80GB HBM3 VM, harness cold mode, 2026-11-25 10:44
// UTC, all checks passed): 286.6 us, 1.798x [1.757, 1.835] (1.856x in a probe run).
#include <cstdint>
#include <limits>

#include "mempool_release_threshold.cuh"

namespace {

class OptimizedMempoolReleaseThreshold : public mempool_release_threshold::Pair {
 public:
  std::string technique() const override {
    return "stream-ordered pool, release threshold UINT64_MAX (kept across syncs)";
  }

 protected:
  uint64_t release_threshold() const override { return std::numeric_limits<uint64_t>::max(); }
};

}  // namespace

AISP_BENCHMARK(OptimizedMempoolReleaseThreshold)
