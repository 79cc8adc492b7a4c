// hbm_copy: out = in over n floats, the HBM bandwidth test. Shared by baseline_hbm_copy.cu (the CPU-style
// "each worker copies its own contiguous chunk" loop) and optimized_hbm_copy.cu (the shape that measured
// fastest on H100 in `aisp hw memory`). Outputs are identical bit for bit.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 2^25 floats = 128 MiB per buffer, 256 MiB moved per run (5x H100's 50 MB L2): ~86 us at 3.0 TB/s.
// Deliberately above the 64 MiB output size the other pairs keep to (costing ~2 s more of host-side
// comparison): this pair reports a fraction of the HBM peak, and L2 is write-back, so up to tens of MB of
// the output can still sit dirty in L2 when the kernel ends. With 128 MiB written that flatters the
// bandwidth by a few percent at most; with 64 MiB it could be twice that.
inline constexpr int64_t kHbmCopyN = int64_t{1} << 25;

inline aisp::Workload hbm_copy_workload() {
  aisp::Workload w;
  w.params = {{"n", kHbmCopyN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kHbmCopyN) * sizeof(float);  // read once, write once
  w.items = static_cast<double>(kHbmCopyN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class HbmCopyBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return hbm_copy_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};
