// ch14 autotuned_tiles, baseline: one fixed tile configuration, 128 x 128 tiles with 8 x 8 per thread.
//
// Technique: none; the configuration that is best for large square GEMMs (most reuse per shared-memory
// load: 64 FMAs per 16 loads), used for every shape.
// Why it is slow here: M = N = 512 gives (512/128)^2 = 16 blocks for 132 SMs: 116 SMs do nothing for the
// whole kernel. (At 1024 x 1024 x 8192, 64 blocks, a first run measured it within 10% of the best tile:
// 2.08 vs 1.87 ms; the smaller shape is where a fixed choice really fails.)
// Expected on Hopper: 16 blocks at ~0.13 TFLOP/s each (what one block reached at 1024^2): ~4 ms.
// Measured: see the chapter README.
#include "autotuned_tiles.cuh"

namespace {

class BaselineAutotunedTiles : public AutotunedTilesBase {
 public:
  void run(aisp::Context& ctx) override {
    launch(ctx, {128, 128, 8, 8, launch_sgemm_tile<128, 128, 8, 8>, "128x128/8x8"});
  }
  std::string technique() const override { return "fixed 128x128 tiles, 8x8 outputs per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAutotunedTiles)
