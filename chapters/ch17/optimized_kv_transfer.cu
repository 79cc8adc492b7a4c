// ch17 kv_transfer, optimized: one gather-scatter kernel for the whole transfer (kv_transfer.cuh).
//
// Technique: grid 512 x 2 CTAs (block, K|V) of 256 threads; each CTA reads its source and destination
// block ids from the device tables and moves the 32 KB block with 16-byte loads and stores (8 per
// thread). One launch replaces 1024 copies.
// Why it is faster: the fixed cost is paid once; the kernel moves 67 MB of traffic at close to HBM
// bandwidth (~25-30 us).
// Expected on Hopper: ~30 us against ~2 ms: tens of times faster.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 19 checks passed): 23.5 us (2.85 TB/s of reads + writes), 373x.
#include "kv_transfer.cuh"

namespace {

using namespace kv_transfer;

__global__ void __launch_bounds__(256)
    move_blocks(const uint4* __restrict__ k_src, const uint4* __restrict__ v_src, const int32_t* __restrict__ src_blocks,
                const int32_t* __restrict__ dst_blocks, uint4* __restrict__ k_dst, uint4* __restrict__ v_dst) {
  constexpr int kChunks = static_cast<int>(kBlockBytes / 16);
  const int b = blockIdx.x;
  const uint4* src = (blockIdx.y == 0 ? k_src : v_src) + int64_t(src_blocks[b]) * kChunks;
  uint4* dst = (blockIdx.y == 0 ? k_dst : v_dst) + int64_t(dst_blocks[b]) * kChunks;
  uint4 v[kChunks / 256];
#pragma unroll
  for (int i = 0; i < kChunks / 256; ++i) v[i] = __ldcs(src + threadIdx.x + 256 * i);  // streamed: read once
#pragma unroll
  for (int i = 0; i < kChunks / 256; ++i) dst[threadIdx.x + 256 * i] = v[i];
}

class GatherScatterKernel : public KvTransferBase {
 public:
  std::string technique() const override { return "one gather-scatter kernel over the block tables"; }
  void run(aisp::Context& ctx) override {
    move_blocks<<<dim3(kBlocks, 2), 256, 0, ctx.stream()>>>(
        ctx.buffer("k_src").as<const uint4>(), ctx.buffer("v_src").as<const uint4>(),
        ctx.buffer("src_blocks").as<const int32_t>(), ctx.buffer("dst_blocks").as<const int32_t>(),
        ctx.buffer("k_dst").as<uint4>(), ctx.buffer("v_dst").as<uint4>());
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace

AISP_BENCHMARK(GatherScatterKernel)
