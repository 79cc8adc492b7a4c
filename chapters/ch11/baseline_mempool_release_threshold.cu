// ch11 mempool_release_threshold, baseline: a stream-ordered pool with the default release threshold (0).
//
// Technique: cudaMallocFromPoolAsync / cudaFreeAsync from a pool created in setup() whose
// cudaMemPoolAttrReleaseThreshold is 0, the default of every pool including the device's default pool
// (what plain cudaMallocAsync uses).
// Why it is slow: a threshold of 0 means "hold nothing": at each stream, event or device synchronize the
// pool returns all unused memory to the OS. The frees of iteration i are done by the sync that ends it, so
// iteration i+1 starts from an empty pool and its allocations map fresh physical memory (192 MiB: page
// allocation and GPU page-table updates) before the first kernel can run; within one iteration later
// allocations reuse freed blocks, so the cost is paid once per synchronize - i.e. every iteration in a
// loop that syncs every iteration.
// Expected on Hopper: the ~0.23 ms of kernels plus a re-map of 192 MiB every run(); how large that is on
// this driver and VM is what the pair measures. Measured (H100 80GB HBM3 VM, harness cold mode, 2026-11-25
// 10:44 UTC, all checks passed): 515.3 us (527.8 us in a probe run): ~230 us per run() more than the pool
// that keeps its memory, i.e. ~1.2 us per MiB mapped again.
#include "mempool_release_threshold.cuh"

namespace {

class BaselineMempoolReleaseThreshold : public mempool_release_threshold::Pair {
 public:
  std::string technique() const override { return "stream-ordered pool, release threshold 0 (trimmed at every sync)"; }

 protected:
  uint64_t release_threshold() const override { return 0; }
};

}  // namespace

AISP_BENCHMARK(BaselineMempoolReleaseThreshold)
