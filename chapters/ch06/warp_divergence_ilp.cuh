// warp_divergence_ilp: a scalar gated recurrence per element, h <- sigmoid(w * (h - 1/2) + x), run for a
// fixed number of steps (a one-unit RNN cell unrolled in time; each element has its own input x).
// The sigmoid is the numerically stable one: for z >= 0 it is 1 / (1 + e^-z), for z < 0 it is
// e^z / (1 + e^z), so exp never overflows. Shared by baseline_warp_divergence_ilp.cu (that definition
// written as an if/else) and optimized_warp_divergence_ilp.cu (the same two formulas merged into one
// branch-free path). Both evaluate the same formulas for each element; they agree to about one ulp, not
// bit for bit, because the compiler lowers the baseline's constant-numerator divide __fdividef(1, d)
// differently from the select-fed __fdividef(num, d) (measured max difference 1.5e-7 on values in
// (0, 1), far inside the default fp32 tolerance, which the pair keeps).
//
// Why every warp diverges: with w = 2 the fixed point z* solves z - 2 sigmoid(z) + 1 = x, which is
// increasing in z and zero at z = 0, so sign(z) = sign(x) once the recurrence settles. x is uniform in
// [-1, 1), so the two branches are taken by random halves of each warp at every step.
#pragma once
#include "aisp/aisp.hpp"

inline constexpr int64_t kDivergenceN = int64_t{1} << 22;  // 4 Mi elements, 16 MiB in and out
inline constexpr int kDivergenceSteps = 64;                // recurrence steps per element
inline constexpr float kDivergenceW = 2.0f;

inline aisp::Workload warp_divergence_ilp_workload() {
  aisp::Workload w;
  w.params = {{"n", kDivergenceN}, {"steps", kDivergenceSteps}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kDivergenceN) * sizeof(float);
  // Useful work per step: the FMA for z, one exp, one add, one divide = 5 flops (the branch-free path's
  // minimum); the divergent path issues more, which is the point.
  w.flops = 5.0 * static_cast<double>(kDivergenceN) * kDivergenceSteps;
  w.items = static_cast<double>(kDivergenceN) * kDivergenceSteps;
  w.item_unit = "element-steps";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class WarpDivergenceIlpBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return warp_divergence_ilp_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.output("h", aisp::DType::f32, {n});
  }
};
