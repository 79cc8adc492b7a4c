// ch07 transpose, baseline: naive, one element per thread, straight from global to global.
//
// Technique: thread (x, y) reads in[y][x] and writes out[x][y]. Lanes of a warp have consecutive x, so the
// read of a warp is one coalesced 128 B line, but the write goes down a column of `out`: 32 addresses
// rows * 4 B = 32 KiB apart, 32 sectors per store instruction, 4 useful bytes in each.
// Why it is slow: half the traffic (the stores) costs 8x the L1/L2 sector transactions it needs; L2 merges
// the partial sectors (the block's 8 thread rows fill each 32 B sector) so DRAM traffic stays near the
// minimum, but the store request path is saturated.
// Expected on Hopper: well under half of the ~3 TB/s an H100 SXM copy reaches (the seed's B200 numbers
// put the tiled version ~3.3x ahead).
#include <stdexcept>

#include "transpose.cuh"

namespace {

__global__ void transpose_naive_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t rows,
                                       int64_t cols) {
  const int64_t x = static_cast<int64_t>(blockIdx.x) * kTransposeTile + threadIdx.x;        // column of in
  const int64_t y = static_cast<int64_t>(blockIdx.y) * kTransposeBlockRows + threadIdx.y;   // row of in
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];  // coalesced read, 32 KiB-strided write
}

class BaselineTranspose : public TransposeBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    const int64_t grid_y = (rows + kTransposeBlockRows - 1) / kTransposeBlockRows;
    if (grid_y > 65535) throw std::runtime_error("transpose: rows too large for grid.y");
    const dim3 block(kTransposeTile, kTransposeBlockRows);
    const dim3 grid(static_cast<unsigned>((cols + kTransposeTile - 1) / kTransposeTile), static_cast<unsigned>(grid_y));
    transpose_naive_kernel<<<grid, block, 0, ctx.stream()>>>(ctx.buffer("in").as<const float>(),
                                                             ctx.buffer("out").as<float>(), rows, cols);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "naive: coalesced reads, column-strided writes"; }
};

}  // namespace

AISP_BENCHMARK(BaselineTranspose)
