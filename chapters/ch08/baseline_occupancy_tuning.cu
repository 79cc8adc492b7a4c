// ch08 occupancy_tuning, baseline: one warp per block (blockDim = 32), one full wave.
//
// Technique: "a block is a warp" - blockDim = 32 with grid = SMs x resident blocks per SM, a layout
// people pick for warp-centric code. The kernel needs only ~16 registers, so registers are not the limit.
// Why it is slow: an SM holds at most 32 resident blocks (compute capability 9.0). With 32-thread blocks
// that is 32 warps - half of the 64 the SM could run - so cudaOccupancyMaxActiveBlocksPerMultiprocessor
// returns 32 and occupancy is 50%. The loop has one 4-byte load in flight per thread, so the GPU holds
// 132 x 1024 x 4 B = 0.54 MB in flight, a quarter of the ~2 MB Little's law asks of HBM3 (3.35 TB/s x
// ~0.6 us): the kernel is latency-bound, and its bandwidth is proportional to the resident warps.
// Expected on Hopper: well below the ~3 TB/s streaming ceiling (measured on an H100 SXM: 70.8 us,
// 1.9 TB/s read + write for the 128 MiB - loaded latency is lower than the 0.6 us assumed above).
#include "occupancy_tuning.cuh"

namespace {

constexpr int kThreads = 32;

class BaselineOccupancyTuning : public OccupancyTuningBase {
 public:
  void setup(aisp::Context& ctx) override {
    OccupancyTuningBase::setup(ctx);
    blocks_ = static_cast<unsigned>(softsign_blocks_per_sm(kThreads) * ctx.device().sm_count);
  }

  void run(aisp::Context& ctx) override {
    softsign_kernel<<<blocks_, kThreads, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(),
                                                            ctx.buffer("y").as<float>(), ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "32-thread blocks: the 32-blocks/SM limit caps it at 32 warps"; }

 private:
  unsigned blocks_ = 0;
};

}  // namespace

AISP_BENCHMARK(BaselineOccupancyTuning)
