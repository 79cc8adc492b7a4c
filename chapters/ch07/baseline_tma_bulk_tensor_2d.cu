// ch07 tma_bulk_tensor_2d, baseline: 2D tiles staged through shared memory by ordinary per-thread loads.
//
// Technique: the classic tiled stencil. One 256-thread block per 128 x 32 output tile (64 x 256 = 16384
// blocks). The block's threads cooperatively copy the needed 130 x 34 pixels of the input box into shared
// memory: element i is box row i / 130, column 7 + i % 130; each thread computes that pixel's image
// coordinate, checks it against the image borders (zero outside) and issues a 2-byte load, ~17 per thread.
// Then __syncthreads, then the blur from shared memory, then the block retires and the hardware launches
// the next one.
// Why it is slow: the bytes in flight. A load moves 2 bytes, and the loop keeps only a few loads per thread
// outstanding (nvcc unrolls it by a small factor), so even 8 resident blocks per SM (2048 threads) hold
// well under the ~2 MB of reads Little's law asks of HBM3 (3.35 TB/s x ~600 ns) - and only while they are
// in their load phase: nothing overlaps inside a block, whose warps load, wait a DRAM round trip (~600-800
// ns), compute and store, so latency is hidden only by the other blocks on the SM. Every pixel also costs
// its own address arithmetic (a division by 130, four bounds checks, a 64-bit address) and an issue slot,
// and a warp's loads of a 260-byte box row starting 2 bytes before a 128 B line touch more sectors than
// the data needs.
// Expected on Hopper: well below the ~3 TB/s a streaming kernel reaches on H100 SXM; roughly 1.6-2.2 TB/s
// read + write (~120-170 us for the 256 MiB moved). Measured on the H100 (harness, cold): 120.9 us,
// 2.22 TB/s.
#include "tma_bulk_tensor_2d.cuh"

namespace {

constexpr int kNeededW = kTileW + 2;  // 130 box columns the blur reads: 7 .. 136

__global__ void __launch_bounds__(kBlurThreads)
blur_staged_kernel(const uint16_t* __restrict__ in, uint32_t* __restrict__ out_words, int height, int width) {
  __shared__ __align__(16) uint16_t box[kBoxH * kBoxW];  // raw bf16 bits, the layout TMA would write
  const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;

  // Stage in[y0 - 1 + r][x0 - 1 + c'] for r < 34, c' < 130 into box[r][7 + c'], zero outside the image.
  for (int i = threadIdx.x; i < kBoxH * kNeededW; i += kBlurThreads) {
    const int r = i / kNeededW, c = i % kNeededW;
    const int y = y0 - 1 + r, x = x0 - 1 + c;
    const bool inside = y >= 0 && y < height && x >= 0 && x < width;
    box[r * kBoxW + kBoxLeft - 1 + c] = inside ? in[static_cast<int64_t>(y) * width + x] : uint16_t{0};
  }
  __syncthreads();

  blur_tile_from_box(reinterpret_cast<const uint32_t*>(box), out_words, width, x0, y0);
}

class BaselineTmaBulkTensor2d : public TmaBulkTensor2dBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t height = ctx.param("height"), width = ctx.param("width");
    const dim3 grid(static_cast<unsigned>(width / kTileW), static_cast<unsigned>(height / kTileH));
    blur_staged_kernel<<<grid, kBlurThreads, 0, ctx.stream()>>>(ctx.buffer("in").as<const uint16_t>(),
                                                               ctx.buffer("out").as<uint32_t>(),
                                                               static_cast<int>(height), static_cast<int>(width));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override {
    return "per-thread 2-byte loads into a shared-memory tile, one tile per block";
  }
};

}  // namespace

AISP_BENCHMARK(BaselineTmaBulkTensor2d)
