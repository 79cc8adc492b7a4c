// ch08 threshold, baseline: the shrinkage operator written with branches.
//
// Technique: the textbook case analysis, per element per step:
//   if (v > lambda) v -= lambda; else if (v < -lambda) v += lambda; else v = 0;
// Why it is slow: x is uniform in [-1, 1), so lanes of a warp fall into all three cases at every step. nvcc
// does not leave real branches here - the bodies are tiny, so it if-converts them (PTX: two setp, two
// adds, two selp per step) - but that is exactly the cost: both candidate results and both comparisons are
// computed for every lane and two selects pick one, ~7 instructions per step (FFMA, 2 FSETP, 2 FADD,
// 2 FSEL) with a 4-deep dependent chain. The kernel is issue-bound (16 MiB of traffic against ~1.1 G
// element-steps), so instructions per step set the time.
// Expected on Hopper: ~7 instructions x 4 Mi x 256 / 32 lanes over 528 schedulers at 1.98 GHz ~ 0.22 ms.
#include "threshold.cuh"

namespace {

// S(v) by case analysis.
struct ShrinkBranchy {
  __device__ __forceinline__ float operator()(float v) const {
    if (v > kThresholdLambda)
      v -= kThresholdLambda;
    else if (v < -kThresholdLambda)
      v += kThresholdLambda;
    else
      v = 0.0f;
    return v;
  }
};

class BaselineThreshold : public ThresholdBase {
 public:
  void run(aisp::Context& ctx) override { launch_threshold<ShrinkBranchy>(ctx); }

  std::string technique() const override { return "if/else shrinkage (compiled to compare + select chains)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineThreshold)
