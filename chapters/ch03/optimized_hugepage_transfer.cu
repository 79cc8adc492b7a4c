// ch03 hugepage_transfer, optimized: the same round trip through a registered buffer of 2 MiB pages.
//
// Technique: back the buffer with huge pages before registering it: MAP_HUGETLB from the hugetlbfs pool
// when the host reserved one (vm.nr_hugepages), otherwise a 2 MiB-aligned anonymous mapping with
// madvise(MADV_HUGEPAGE) so transparent huge pages back it at first touch. The worker log prints how
// much of the buffer smaps reports as huge; if the host offers neither, the buffer falls back to
// 4 KiB pages and the pair honestly measures no difference.
// Why it should be faster: 32 translations per 64 MiB direction instead of 16384, so the IOMMU's and
// the GPU's translation caches cover the whole buffer and DMA never waits for a page walk. Registration
// is also far cheaper (pinning 32 compound pages instead of 16384), though that happens in setup().
// Expected on Hopper: on bare metal with the IOMMU in passthrough, within a few percent of the 4 KiB
// buffer (the link, not translation, is the limit); in a VM, up to tens of percent faster. The measured
// verdict on this host is the answer; SAME is a legitimate one.
// Measured (H100 80GB HBM3 VM, 2026-11-22, chapter README): 2.447 ms vs 2.449 ms, SAME, with the buffer 100%
// THP-backed against 0%: page size does not limit DMA on this VM.
#include <memory>

#include "hugepage_transfer.cuh"

namespace {

class OptimizedHugepageTransfer : public HugepageTransferBase {
 public:
  void setup(aisp::Context& ctx) override {
    HugepageTransferBase::setup(ctx);
    host_ = std::make_unique<RegisteredHostBuffer>(ctx.param("n") * sizeof(float), true);
    host_->log("optimized");
  }
  void run(aisp::Context& ctx) override { hugepage_round_trip(ctx, host_->data()); }
  void teardown(aisp::Context&) override { host_.reset(); }
  std::string technique() const override { return "registered host buffer on 2 MiB pages (" + huge_page_offer() + ")"; }
  std::string informational() const override {
    return "page size limits DMA only where address translation misses (IOMMU or nested paging under load); "
           "where the link is the limit, SAME is the correct result";
  }

 private:
  std::unique_ptr<RegisteredHostBuffer> host_;
};

}  // namespace

AISP_BENCHMARK(OptimizedHugepageTransfer)
