// ch11 bidirectional_copies, baseline: offload (D2H) then prefetch (H2D) on the harness stream, then the
// kernel.
//
// Technique: both transfers as pinned async copies in stream order: correct, non-blocking for the host,
// and serial on the GPU.
// Why it is slow: H100 has a copy engine per direction and PCIe Gen5 is full duplex (64 GB/s raw each
// way), but one stream runs its copies one at a time, so each direction's link idles while the other works.
// Expected on Hopper: 2 x ~0.65 ms + a ~40 us kernel = ~1.35 ms on an H100 SXM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.323 ms (median).
#include "bidirectional_copies.cuh"

namespace {

class BaselineBidirectionalCopies : public BidirectionalCopiesBase {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    offload(ctx, s);
    prefetch(ctx, s);
    combine(ctx, s);
  }
  std::string technique() const override { return "D2H then H2D on one stream"; }
};

}  // namespace

AISP_BENCHMARK(BaselineBidirectionalCopies)
