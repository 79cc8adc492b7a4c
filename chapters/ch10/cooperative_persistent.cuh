// cooperative_persistent: 256 Jacobi steps of a 5-point averaging stencil on a 2048 x 1024 fp32 grid (8 MiB,
// zero outside the grid): u'[i][j] = 0.2 (u[i][j] + u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]). Every
// step needs the whole previous step finished, i.e. a grid-wide barrier between steps - the shape of any
// iterative solver, smoother or time-stepping loop whose steps are small.
//   baseline_cooperative_persistent.cu:  one kernel launch per step, ping-ponging two global buffers: the
//                                        launch boundary is the barrier (256 launches per run())
//   optimized_cooperative_persistent.cu: one cooperative launch of 128 persistent blocks; each owns a band of
//                                        16 rows in shared memory for all 256 steps, trades only its two edge
//                                        rows through global memory, and meets the others at grid.sync()
// Both evaluate the same expression in the same order (jacobi_point below), so the outputs are identical bit
// for bit; the f32 default tolerance applies.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace cooperative_persistent {

inline constexpr int64_t kHeight = 2048, kWidth = 1024, kSteps = 256;

inline aisp::Workload workload() {
  aisp::Workload w;
  w.params = {{"height", kHeight}, {"width", kWidth}, {"steps", kSteps}};
  w.precision = aisp::DType::f32;
  const double cells = static_cast<double>(kHeight) * kWidth;
  w.bytes = 2.0 * cells * sizeof(float);  // the minimum: the initial grid read once, the final one written once
  w.flops = 5.0 * cells * kSteps;         // 4 adds + 1 multiply per cell per step
  w.items = cells * kSteps;
  w.item_unit = "cell-updates";
  return w;
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cooperative_persistent::workload(); }
  void setup(aisp::Context& ctx) override {
    ctx.input("u0", aisp::DType::f32, {ctx.param("height"), ctx.param("width")});
    ctx.output("u", aisp::DType::f32, {ctx.param("height"), ctx.param("width")});
    setup_variant(ctx);
  }
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }

 protected:
  virtual void setup_variant(aisp::Context&) {}
};

// The one update rule, shared so both variants round identically (no multiply-add to contract).
__device__ __forceinline__ float jacobi_point(float c, float n, float s, float w, float e) {
  return 0.2f * ((((c + n) + s) + w) + e);
}

}  // namespace cooperative_persistent
