// ch14 autotuned_tiles, baseline: one fixed tile configuration, 128 x 128 tiles with 8 x 8 per thread.
//
// Technique: none; the configuration that is best for large square GEMMs (most reuse per shared-memory
// load: 64 FMAs per 16 loads), used for every shape.
// Why it is slow here: M = N = 1024 gives (1024/128)^2 = 64 blocks for 132 SMs, one block per SM at most
// (256 threads x ~128 registers): 68 SMs do nothing for the whole kernel.
// Expected on Hopper: ~64/132 of the CUDA-core rate a well-fed SM reaches: ~1-1.2 ms at 1024 x 1024 x 8192.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 2.080 ms (8.3 TFLOP/s): slower than
// expected, so each 128x128 block, not only the idle SMs, is the limit of this simple kernel.
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
