// ch17 kv_transfer, baseline: one cudaMemcpyAsync per KV block (kv_transfer.cuh).
//
// Technique: setup() reads the two static block tables to the host (the scheduler's plan); run() issues,
// for each of the 512 blocks, a device-to-device cudaMemcpyAsync of its 32 KB of K and one of its V, on
// the harness stream: 1024 copies, as vLLM's swap_blocks loop does.
// Why it is slow: every copy is a separate operation with a fixed cost of a few microseconds on the GPU
// (and more to enqueue); 32 KB moves in ~0.1 us of HBM time, so the per-copy overhead dominates ~20x.
// Expected on Hopper: ~1024 x 1.5-3 us = ~1.5-3 ms for 67 MB of traffic.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 8.748 ms, ~8.5 us per copy. The harness notes
// that run() waited on its held stream (a full launch queue: 1024 copies), so samples include enqueue time.
#include <vector>

#include "kv_transfer.cuh"

namespace {

using namespace kv_transfer;

class PerBlockCopies : public KvTransferBase {
 public:
  std::string technique() const override { return "one cudaMemcpyAsync per block and tensor (1024 copies)"; }
  void run(aisp::Context& ctx) override {
    auto* ks = static_cast<const char*>(ctx.buffer("k_src").data);
    auto* vs = static_cast<const char*>(ctx.buffer("v_src").data);
    auto* kd = static_cast<char*>(ctx.buffer("k_dst").data);
    auto* vd = static_cast<char*>(ctx.buffer("v_dst").data);
    for (int b = 0; b < kBlocks; ++b) {
      const size_t from = size_t(src_[b]) * kBlockBytes, to = size_t(dst_[b]) * kBlockBytes;
      AISP_CUDA_CHECK(cudaMemcpyAsync(kd + to, ks + from, kBlockBytes, cudaMemcpyDeviceToDevice, ctx.stream()));
      AISP_CUDA_CHECK(cudaMemcpyAsync(vd + to, vs + from, kBlockBytes, cudaMemcpyDeviceToDevice, ctx.stream()));
    }
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    src_.resize(kBlocks);
    dst_.resize(kBlocks);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));  // the static fills were enqueued there
    AISP_CUDA_CHECK(cudaMemcpy(src_.data(), ctx.buffer("src_blocks").data, kBlocks * 4, cudaMemcpyDeviceToHost));
    AISP_CUDA_CHECK(cudaMemcpy(dst_.data(), ctx.buffer("dst_blocks").data, kBlocks * 4, cudaMemcpyDeviceToHost));
  }

 private:
  std::vector<int32_t> src_, dst_;
};

}  // namespace

AISP_BENCHMARK(PerBlockCopies)
