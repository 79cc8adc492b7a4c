// ch05 storage_cpu, baseline: read() the whole file into a pageable buffer, then a blocking copy.
//
// Technique: what np.fromfile(...) followed by torch.from_numpy(...).cuda() does: one thread reads the
// 16 MiB file into ordinary heap memory (pread loop), then copies it to the GPU with cudaMemcpy
// semantics (cudaMemcpyAsync + stream synchronize), then the add kernel runs (StorageSynchronous in
// storage_cpu.cuh).
// Why it is slow: everything is serial on one thread. The read is a kernel memcpy from the page cache
// into the user buffer (one core, ~5-10 GB/s); the copy then goes through the driver's pinned bounce
// buffers with another single-core memcpy (~10-25 GB/s; ch02 memory_transfer) before DMA; the GPU waits
// for the whole file before its first byte moves, and the reads wait while the GPU copies.
// Expected on Hopper: ~1.6-3 ms for the read + ~0.7-1.6 ms for the pageable copy = ~2.5-4.5 ms per run
// (host dependent). Measures the CACHED path: the file was just written (see storage_cpu.cuh).
// Timing: run() first waits for the harness stream to start (open_host_window), so the read is inside
// the timed window.
#include "storage_cpu.cuh"

namespace {

class BaselineStorageCpu : public StorageSynchronous {
 public:
  BaselineStorageCpu() : StorageSynchronous(kStorageN, false) {}
  std::string technique() const override { return "one thread: read() whole file into pageable memory, then blocking cudaMemcpy"; }
};

}  // namespace

AISP_BENCHMARK(BaselineStorageCpu)
