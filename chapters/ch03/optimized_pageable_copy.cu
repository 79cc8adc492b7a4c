// ch03 pageable_copy, optimized: our own staging pipeline through a ring of pinned slots.
//
// Technique: StagedUploader (staged_h2d.cuh): 4 host threads memcpy 2 MiB chunks of the pageable source
// into 6 pinned slots (allocated once in setup()); the thread calling run() queues each slot's DMA on
// the harness stream the moment its chunk is in, and recycles a slot once an event says its DMA is done.
// Why it is faster: the driver's staging is one thread alternating memcpy and DMA. Here four threads
// copy in parallel (host DRAM has far more bandwidth than one core can draw), and the copy engine
// drains slot k while slots k+1.. are being filled, so the DMA and the host copies overlap and the rate
// approaches min(4 x per-core memcpy, PCIe) instead of one core's memcpy.
// Costs: 12 MiB of pinned memory and 4 threads held for the pipeline's lifetime, and CPU cycles that a
// real loader might want for decoding.
// Expected on Hopper: ~30-45 GB/s (PCIe Gen5 x16 tops out near 50), ~0.8-1.1 ms for 32 MiB: 1.5-3x over
// the driver-staged copy, depending on the host's per-core memcpy bandwidth.
// Timing: run() first waits for the harness stream to start (open_host_window), so the host copies are
// inside the timed window.
// Measured (H100 80GB HBM3 VM, 2026-11-22, chapter README): 2.81 ms -> 1.57 ms, 1.8x: 21 GB/s against the
// driver's 12 GB/s; host memcpy bandwidth of the vCPUs is the limit.
#include "staged_h2d.cuh"

namespace {

class OptimizedPageableCopy : public StagedPipelineBase {
 public:
  void run(aisp::Context& ctx) override { upload_and_add(ctx, "pageable_copy (staging pipeline)"); }

  std::string technique() const override {
    return "4 host threads fill a ring of 6 x 2 MiB pinned slots; DMA of filled slots overlaps the copies";
  }

 protected:
  std::unique_ptr<StagedUploader> make_uploader(aisp::Context&) override {
    return std::make_unique<StagedUploader>(StagedUploader::Geometry{}, StagedUploader::Placement{});
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedPageableCopy)
