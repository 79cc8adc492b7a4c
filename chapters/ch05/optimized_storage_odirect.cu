// ch05 storage_odirect, optimized: the storage_cpu pipeline reading with O_DIRECT.
//
// Technique: 8 threads each pread() a 1 MiB chunk with O_DIRECT straight into one of 10 pinned,
// page-aligned slots (every offset and length a multiple of 1 MiB, as O_DIRECT requires): the storage
// device DMAs into the slot, no CPU copy at all. The thread calling run() queues each filled slot's DMA
// to the GPU the moment its chunk is in and recycles a slot when its DMA event completes.
// Why it is faster: the GPU copy of chunk k runs while chunks k+1.. are being read, so the transfer to
// the GPU hides under the disk reads instead of following them, and the pinned slots remove the
// driver's bounce-buffer memcpy. Four 1 MiB requests in flight keep the device queue about as busy as
// the baseline's single large read, so the disk time itself is roughly unchanged: the gain is the
// serial copy tail (the pageable copy of the whole file) minus one chunk's DMA.
// Expected on Hopper hosts: ~disk time + ~20 us, i.e. 10-25% under the baseline here (the copy tail is
// small next to a ~2.5 GB/s virtual disk; on a fast local NVMe array it is a larger share).
// Measured (H100 80GB HBM3 VM, 2026-11-22, chapter README): 5.05 ms -> 4.47 ms, 1.13x; the virtual disk (~1.9
// GB/s) sets both. 2026-11-25: 1.197x [1.048, 1.373] once the interval includes the between-process spread
// (an A/A of the baseline: its processes differ by ~3% from one another on this disk), so the gain is not
// separable from process-to-process disk noise here: declared informational, see informational().
#include "storage_cpu.cuh"

namespace {

class OptimizedStorageODirect : public StoragePipeline {
 public:
  OptimizedStorageODirect() : StoragePipeline(kStorageDirectN, true) {}
  std::string technique() const override {
    return storage_dir_takes_odirect()
               ? "8 threads pread() with O_DIRECT into 10 pinned 1 MiB slots; GPU DMA overlaps the reads"
               : "O_DIRECT refused under " + storage_dir() + ": same pipeline with buffered reads";
  }
  // The win is the serial copy tail next to the disk time, so its size is the storage device's to decide.
  std::string informational() const override {
    return "the gain is the GPU copy tail next to the disk time: 10-25% on a ~2 GB/s virtual disk whose reads "
           "differ by ~3% from one process to another, a larger share on local NVMe";
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedStorageODirect)
