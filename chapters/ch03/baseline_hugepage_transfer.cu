// ch03 hugepage_transfer, baseline: the round trip through a registered buffer of 4 KiB pages.
//
// Technique: mmap 64 MiB (MADV_NOHUGEPAGE, so THP cannot quietly upgrade it), touch it, cudaHostRegister
// it in setup(); run() copies `in` into it and back out to `out`.
// Why it can be slower: the buffer is 16384 separate 4 KiB pages, so the DMA engines need 16384 address
// translations per direction; with an IOMMU in the path (always, for a VM's passthrough GPU) each miss
// in its translation cache costs a page walk before the data moves.
// Expected on Hopper: the link rate, ~50 GB/s per direction (~2.7 ms for 2 x 64 MiB) on bare metal; a
// few to tens of percent less where translation misses bite (see the .cuh). This pair measures, on this
// host, whether they do.
#include <memory>

#include "hugepage_transfer.cuh"

namespace {

class BaselineHugepageTransfer : public HugepageTransferBase {
 public:
  void setup(aisp::Context& ctx) override {
    HugepageTransferBase::setup(ctx);
    host_ = std::make_unique<RegisteredHostBuffer>(ctx.param("n") * sizeof(float), false);
    host_->log("baseline");
  }
  void run(aisp::Context& ctx) override { hugepage_round_trip(ctx, host_->data()); }
  void teardown(aisp::Context&) override { host_.reset(); }
  std::string technique() const override { return "registered host buffer on 4 KiB pages (MADV_NOHUGEPAGE)"; }

 private:
  std::unique_ptr<RegisteredHostBuffer> host_;
};

}  // namespace

AISP_BENCHMARK(BaselineHugepageTransfer)
