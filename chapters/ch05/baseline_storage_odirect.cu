// ch05 storage_odirect, baseline: one O_DIRECT read of the whole file, then a blocking copy.
//
// Technique: the uncached loader done simply: open the file with O_DIRECT (no page cache), read all
// 8 MiB with one pread into a 4 KiB-aligned pageable buffer, then copy it to the GPU with cudaMemcpy
// semantics, then the add kernel (StorageSynchronous in storage_cpu.cuh). This is already a decent
// baseline: the block layer splits one large direct read into many requests and keeps the device
// queue busy.
// Why it is slow: the stages are serial. The GPU sees nothing until the last byte is off the disk, and
// the disk idles while the driver stages the pageable copy through its bounce buffers with a CPU
// memcpy (~10-25 GB/s) before DMA.
// Expected on Hopper hosts: read time = 8 MiB / disk bandwidth (local NVMe 3-7 GB/s: 1.2-2.8 ms; the
// measurement VM's virtual disk ~2.5 GB/s: ~3.2 ms) + ~0.5 ms of pageable copy.
// Both variants of this pair read uncached data; storage_cpu is the cached counterpart.
#include "storage_cpu.cuh"

namespace {

class BaselineStorageODirect : public StorageSynchronous {
 public:
  BaselineStorageODirect() : StorageSynchronous(kStorageDirectN, true) {}
  std::string technique() const override {
    return storage_dir_takes_odirect() ? "one O_DIRECT pread of the whole file into pageable memory, then blocking cudaMemcpy"
                                       : "O_DIRECT refused under " + storage_dir() + ": buffered read, then blocking cudaMemcpy";
  }
};

}  // namespace

AISP_BENCHMARK(BaselineStorageODirect)
