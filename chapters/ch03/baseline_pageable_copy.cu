// ch03 pageable_copy, baseline: one cudaMemcpyAsync straight from the pageable source.
//
// Technique: hand the driver a pageable pointer and let it stage the copy (what `tensor.cuda()` does
// for an unpinned tensor). ch02 memory_transfer compared pageable with pinned *buffers*; here the
// source cannot be pinned (someone else owns it), so the question is how to stage it.
// Why it is slow: the driver copies through a few small pinned bounce buffers, and the CPU side of that
// staging (memcpy from the source into a bounce buffer) runs on the one thread that called
// cudaMemcpyAsync, alternating with the DMA. The transfer therefore runs at roughly one core's memcpy
// bandwidth, well under the ~50 GB/s the PCIe Gen5 x16 link carries, and the call blocks the host
// until the last byte has been staged.
// Expected on Hopper: 32 MiB at ~10-25 GB/s (host dependent) = ~1.3-3.4 ms, plus ~15 us for the add.
#include "staged_h2d.cuh"

namespace {

class BaselinePageableCopy : public StagedH2dBase {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::require_eager(s, "pageable_copy (driver-staged)");
    AISP_CUDA_CHECK(cudaMemcpyAsync(uploaded_, src_.get(), ctx.param("n") * sizeof(float), cudaMemcpyHostToDevice, s));
    launch_staged_add(ctx, uploaded_);
  }

  std::string technique() const override { return "cudaMemcpyAsync from pageable memory (driver-staged, blocking)"; }
};

}  // namespace

AISP_BENCHMARK(BaselinePageableCopy)
