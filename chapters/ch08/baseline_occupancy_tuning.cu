// ch08 occupancy_tuning, baseline: 1024-thread blocks, one full wave.
//
// Technique: the "biggest block" habit - blockDim = 1024, grid = SMs x resident blocks per SM.
// Why it is slow: the kernel needs 40 registers per thread (ptxas -v, nvcc 13.0, sm_90a). Registers are
// handed out per block, and a 1024-thread block takes 40 x 1024 = 40960 of the SM's 65536: a second
// block does not fit, so cudaOccupancyMaxActiveBlocksPerMultiprocessor returns 1 and the SM holds 32
// warps of its 64 (50% occupancy) while 24576 registers - 37% of the register file - stay unused.
// The loop has 8 bytes of loads in flight per thread and then ~100 instructions of math (during which
// that thread has nothing in flight), so bandwidth scales with resident threads: 132 x 1024 threads is
// ~1 MB in flight at best, under the ~2 MB Little's law asks of HBM3.
// Expected on Hopper: ~1.6-2 TB/s read + write (~100-120 us for the 192 MiB).
#include "occupancy_tuning.cuh"

namespace {

constexpr int kThreads = 1024;

class BaselineOccupancyTuning : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return occupancy_tuning_workload(); }
  void setup(aisp::Context& ctx) override {
    declare_occupancy_tuning_buffers(ctx);
    const int per_sm = gated_mixture_blocks_per_sm(kThreads);
    blocks_ = static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * ctx.device().sm_count);
  }

  void run(aisp::Context& ctx) override {
    gated_mixture_kernel<<<blocks_, kThreads, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(),
                                                                 ctx.buffer("g").as<const float>(),
                                                                 ctx.buffer("y").as<float>(), ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "1024-thread blocks: 1 block (32 warps) per SM at 40 regs"; }

 private:
  unsigned blocks_ = 0;
};

}  // namespace

AISP_BENCHMARK(BaselineOccupancyTuning)
