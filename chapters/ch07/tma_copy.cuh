// tma_copy: out = in over n floats, once with a plain thread-per-element copy and once with Hopper's TMA
// bulk-copy engine (cp.async.bulk global -> shared -> global, completion tracked by an mbarrier). Shared by
// baseline_tma_copy.cu and optimized_tma_copy.cu; outputs are identical bit for bit.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 2^24 floats = 64 MiB per buffer, 128 MiB moved per run (2.7x H100's 50 MB L2): ~45 us at ~3 TB/s.
// (64 MiB is the output size the harness dumps and compares on the host in reasonable time.)
inline constexpr int64_t kTmaCopyN = int64_t{1} << 24;

inline aisp::Workload tma_copy_workload() {
  aisp::Workload w;
  w.params = {{"n", kTmaCopyN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(kTmaCopyN) * sizeof(float);  // read once, write once
  w.items = static_cast<double>(kTmaCopyN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class TmaCopyBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return tma_copy_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};
