// add: c = a + b over n floats, the first kernel of every CUDA course. Shared by baseline_add.cu (one
// thread walks the whole array) and optimized_add.cu (one thread per element), which compute exactly the
// same sums, so their outputs are identical bit for bit.
#pragma once
#include "aisp/aisp.hpp"

// 2^14 floats (64 KiB per buffer). Small on purpose: the serial baseline runs one element after another
// on a single thread, ~30-60 ns each (an L1 hit for 31 of every 32 elements, an HBM round trip of
// ~350 ns for the first element of each 128 B line), so 16 Ki elements already take ~0.5-1 ms. The
// parallel kernel then runs in a few microseconds, which is mostly launch and one HBM round trip.
inline constexpr int64_t kAddN = int64_t{1} << 14;

inline aisp::Workload add_workload() {
  aisp::Workload w;
  w.params = {{"n", kAddN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * static_cast<double>(kAddN) * sizeof(float);  // read a and b once, write c once
  w.flops = static_cast<double>(kAddN);
  w.items = static_cast<double>(kAddN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class AddBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return add_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("a", aisp::DType::f32, {n});
    ctx.input("b", aisp::DType::f32, {n});
    ctx.output("c", aisp::DType::f32, {n});
  }
};
