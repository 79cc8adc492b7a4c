// ch02 managed_prefetch, baseline: let the kernel fault the managed data over.
//
// Technique: after the common reset (data in host memory), launch the kernel on the managed pointer.
// Each first touch of a page that is not on the GPU raises a GPU page fault; the UVM driver services
// faults in batches on the CPU (unmap on the host, copy, map on the GPU) and replays the stalled warps.
// Why it is slow: migration is driven by faults, so the copy engine only moves what the driver has
// learned is needed, in groups of 64 KiB-2 MiB, with a CPU round trip (interrupt, fault-buffer parse,
// page-table updates on both sides, TLB invalidations) per batch, while the warps that faulted sit
// idle. Fault-driven migration typically reaches a few GB/s on x86 + PCIe, a fraction of the link.
// Expected on Hopper: ~2-6 ms to migrate 16 MiB on demand, plus the ~0.5-1 ms reset; the kernel itself
// is ~15 us once the data is resident.
#include "managed_prefetch.cuh"

namespace {

class BaselineManagedPrefetch : public ManagedPrefetchBase {
 public:
  void run(aisp::Context& ctx) override {
    reset_managed_to_host(ctx, data_);
    launch_managed_add(ctx, data_);  // faults migrate `data` to the GPU page by page
  }

  std::string technique() const override { return "kernel reads managed memory resident on the host: on-demand page faults"; }
};

}  // namespace

AISP_BENCHMARK(BaselineManagedPrefetch)
