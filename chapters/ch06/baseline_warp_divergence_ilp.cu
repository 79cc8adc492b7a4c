// ch06 warp_divergence_ilp, baseline: the stable sigmoid written as an if/else inside the recurrence.
//
// Technique: the textbook definition, branch per element per step:
//   if (z >= 0) { e = exp(-z); h = 1 / (1 + e); } else { e = exp(z); h = e / (1 + e); }
// Why it is slow: a warp executes one instruction stream for its 32 lanes. When lanes disagree on the
// branch (here: at every step in every warp, see warp_divergence_ilp.cuh), the warp runs the `if` side
// with the other lanes masked off, then the `else` side, then reconverges (BSSY/BSYNC). Each step thus
// issues both sides: 2 MUFU.EX2 + 2 MUFU.RCP (__expf, __fdividef) instead of 1 + 1, plus the branch and
// reconvergence instructions. The special-function unit does 16 results/clock/SM, i.e. one warp
// instruction per 8 cycles per scheduler, so the step costs ~32 scheduler cycles instead of ~16 - and
// each side is a short dependent chain that the scheduler cannot overlap with the other side (no ILP
// across the branch).
// Expected on Hopper: SFU-bound at ~32 cycles per warp-step: 4 Mi x 64 steps / 32 lanes x 32 cycles over
// 528 schedulers at 1.98 GHz ~ 0.26 ms.
#include "warp_divergence_ilp.cuh"

namespace {

__global__ void recurrence_branchy_kernel(const float* __restrict__ x, float* __restrict__ h_out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float xi = x[i];
  float h = 0.5f;
  for (int s = 0; s < kDivergenceSteps; ++s) {
    const float z = fmaf(kDivergenceW, h - 0.5f, xi);
    if (z >= 0.0f) {
      const float e = __expf(-z);
      h = __fdividef(1.0f, 1.0f + e);
    } else {
      const float e = __expf(z);
      h = __fdividef(e, 1.0f + e);
    }
  }
  h_out[i] = h;
}

class BaselineWarpDivergenceIlp : public WarpDivergenceIlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    recurrence_branchy_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float>(), ctx.buffer("h").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "data-dependent if/else per step: warps run both sides"; }
};

}  // namespace

AISP_BENCHMARK(BaselineWarpDivergenceIlp)
