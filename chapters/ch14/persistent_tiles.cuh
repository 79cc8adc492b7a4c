// persistent_tiles: a work list of 128 independent tiles, each a [256][1024] FP32 softmax (1 MiB in, 1 MiB
// out; 32 Ki rows in all): the shape of per-request or per-sequence work a server walks through.
//
//   baseline_persistent_tiles.cu    the host walks the list and launches one grid per tile (32 blocks of
//                                   8 warps, a warp per row): 128 launches, each too small to fill 132 SMs
//   optimized_persistent_tiles.cu   one persistent grid (as many blocks as fit on the GPU at once) whose
//                                   warps walk all rows of all tiles with a grid-stride loop
//
// Both run softmax_row_registers<1024> on every row (row_softmax.cuh): bit-identical outputs. Both open
// the timed window on the host (../common/host_window.hpp): the per-tile launches are host work, and
// the subject.
#pragma once
#include <cstdint>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"
#include "row_softmax.cuh"

inline constexpr int64_t kTiles = 128, kTileRows = 256, kTileCols = 1024;
inline constexpr int kTileWarpsPerBlock = 8;

class PersistentTilesBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"tiles", kTiles}, {"tile_rows", kTileRows}, {"cols", kTileCols}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kTiles * kTileRows * kTileCols * sizeof(float);
    w.flops = 5.0 * kTiles * kTileRows * kTileCols;
    w.items = double(kTiles);
    w.item_unit = "tiles";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("tiles") * ctx.param("tile_rows");
    ctx.input("x", aisp::DType::f32, {rows, ctx.param("cols")}, aisp::Fill::uniform(-8, 8));
    ctx.output("y", aisp::DType::f32, {rows, ctx.param("cols")});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};
