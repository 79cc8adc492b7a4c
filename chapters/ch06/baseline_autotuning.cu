// ch06 autotuning, baseline: a launch configuration hard-coded for another GPU.
//
// Technique: <<<320, 128>>> - "4 blocks of 128 threads per SM" tuned once on an 80-SM V100 and never
// revisited. The grid-stride loop keeps it correct on any GPU; it does not keep it fast.
// Why it is slow: on an H100 SXM the 320 blocks spread over 132 SMs as 2-3 blocks each: ~10 warps per
// SM of the 64 it can hold (15% occupancy), and some SMs get one block less than others. Each thread has
// one pair of 16-byte loads in flight, so the GPU has 320 x 128 x 32 B = 1.3 MB of loads in flight at
// best - under the ~2 MB HBM3 needs (3.35 TB/s x ~0.6 us) - and the uneven 2-vs-3 blocks per SM leaves
// part of the memory system waiting on the busiest SMs.
// Expected on Hopper: well under the ~3 TB/s streaming ceiling (measured on an H100 SXM: 86 us,
// 2.3 TB/s read + write for the 192 MiB).
#include "autotuning.cuh"

namespace {

constexpr unsigned kFixedBlocks = 320;  // 80 SMs x 4 blocks: a V100's full wave
constexpr int kFixedThreads = 128;

class BaselineAutotuning : public AutotuningBase {
 public:
  void run(aisp::Context& ctx) override { launch_saxpy(ctx, kFixedBlocks, kFixedThreads); }
  std::string technique() const override { return "hard-coded <<<320, 128>>> (a V100's wave)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAutotuning)
