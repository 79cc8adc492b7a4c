// ch02 memory_transfer, baseline: the round trip through a pageable host buffer (plain malloc'd memory).
//
// Technique: cudaMemcpyAsync D2H into, and H2D out of, memory the OS may page: what you get from
// malloc/new/std::vector (and from a framework tensor that was never pinned).
// Why it is slow: the GPU's copy engines can only DMA to physical pages that cannot move, so the driver
// stages every pageable copy through its own small pinned bounce buffers: D2H = DMA into a bounce
// buffer, then a CPU memcpy out of it; H2D = CPU memcpy into a bounce buffer, then DMA. The CPU memcpy
// runs on the calling thread, chunk by chunk, only partly overlapped with the DMA, so the rate is set by
// one core's memcpy bandwidth plus the hand-offs, not by PCIe. Both calls also block the host (an
// "async" copy of pageable memory returns only when the data has left or reached the host buffer).
// Expected on Hopper: H100 SXM's PCIe Gen5 x16 link carries ~50-55 GB/s per direction to pinned memory;
// pageable copies typically reach 10-25 GB/s (host dependent; slower in a VM), i.e. ~1.5-3 ms for the
// 2 x 16 MiB round trip.
// The harness's held stream: the pageable D2H call waits for the stream, so the harness drops its
// blocking kernel for this variant and the samples include the host-side staging, as they should.
#include <cstring>
#include <memory>

#include "../common/host_pipeline.hpp"
#include "memory_transfer.cuh"

namespace {

class BaselineMemoryTransfer : public MemoryTransferBase {
 public:
  void setup(aisp::Context& ctx) override {
    MemoryTransferBase::setup(ctx);
    const size_t n = static_cast<size_t>(ctx.param("n"));
    host_ = std::make_unique<float[]>(n);
    // Touch every page now: first-touch page faults belong to setup, not to the first timed samples.
    std::memset(host_.get(), 0, n * sizeof(float));
  }

  void run(aisp::Context& ctx) override {
    host_pipeline::require_eager(ctx.stream(), "memory_transfer (pageable)");  // pageable copies cannot be captured
    round_trip_through_host(ctx, host_.get());
  }

  void teardown(aisp::Context&) override { host_.reset(); }
  std::string technique() const override { return "cudaMemcpyAsync D2H + H2D through pageable (malloc'd) memory"; }

 private:
  std::unique_ptr<float[]> host_;
};

}  // namespace

AISP_BENCHMARK(BaselineMemoryTransfer)
