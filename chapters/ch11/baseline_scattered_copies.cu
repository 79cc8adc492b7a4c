// ch11 scattered_copies, baseline: one cudaMemcpyAsync per 16 KiB block, 1024 calls, then the kernel.
//
// Technique: the obvious loop - for each piece, cudaMemcpyAsync(staged + i * 16 KiB, pool block, H2D) on
// the harness stream - then one transform kernel over the 16 MiB staging buffer. Pinned source, async
// copies, no syncs: everything is right except the number of calls.
// Why it is slow: every call is a trip through the driver (~2-3 us of host time in this VM, measured in
// ch11 event_dependencies and ch12) and one copy-engine job with its own setup; 16 KiB moves in ~0.3 us
// at PCIe Gen5 speed, so per-call overhead, not the link, sets the pace: ~1024 x 2-3 us.
// Expected on Hopper (H100 VM): ~2-3 ms, far from the 16 MiB / ~50 GB/s = 0.33 ms the link allows.
// Measured (H100 80GB HBM3 VM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 3.343 ms (3.3 us per
// block; noisy, 37% relative spread between samples: host-bound).
#include "scattered_copies.cuh"

namespace {

using namespace scattered_copies;

class BaselineScatteredCopies : public Pair {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open(s);
    for (int64_t i = 0; i < kPieces; ++i)
      AISP_CUDA_CHECK(
          cudaMemcpyAsync(staged_ + i * kBlockElems, host_block(i), kBlockBytes, cudaMemcpyHostToDevice, s));
    transform_staged(ctx, staged_);
  }
  std::string technique() const override { return "one cudaMemcpyAsync per 16 KiB block (1024 calls), then a kernel"; }

 protected:
  void setup_variant(aisp::Context& ctx) override {
    staged_ = static_cast<float*>(ctx.scratch("staged", kPieces * kBlockBytes));
  }

 private:
  float* staged_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineScatteredCopies)
