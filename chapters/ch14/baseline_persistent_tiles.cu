// ch14 persistent_tiles, baseline: one kernel launch per tile.
//
// Technique: none; a host loop over the work list. Each launch is 32 blocks (256 rows, a warp per row) on
// a 132-SM GPU: three quarters of the SMs idle, and each tile pays a launch (~2-3 us of GPU-side setup
// plus the host's issue time) and a tail in which its last rows finish alone.
// Expected on Hopper: ~128 x 4-6 us = 0.5-0.8 ms against ~90 us of HBM time for 256 MiB.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 796.7 us (noise 10%: host-bound launches).
#include "persistent_tiles.cuh"

namespace {

__global__ void softmax_tile_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t rows) {
  const int64_t row = blockIdx.x * int64_t(kTileWarpsPerBlock) + threadIdx.x / 32;
  if (row < rows) softmax_row_registers<kTileCols>(x + row * kTileCols, y + row * kTileCols);
}

class BaselinePersistentTiles : public PersistentTilesBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    const int64_t tile_rows = ctx.param("tile_rows"), tile_elems = tile_rows * kTileCols;
    const unsigned blocks = static_cast<unsigned>(tile_rows / kTileWarpsPerBlock);
    for (int64_t t = 0; t < ctx.param("tiles"); ++t) {
      softmax_tile_kernel<<<blocks, 32 * kTileWarpsPerBlock, 0, ctx.stream()>>>(
          ctx.buffer("x").as<const float>() + t * tile_elems, ctx.buffer("y").as<float>() + t * tile_elems, tile_rows);
      AISP_LAUNCH_CHECK();
    }
  }
  std::string technique() const override { return "one launch per tile (128 launches of 32 blocks)"; }
};

}  // namespace

AISP_BENCHMARK(BaselinePersistentTiles)
