// copy_scalar: out = in over n floats, the simplest HBM-bound kernel there is. Shared by
// baseline_copy_scalar.cu and optimized_copy_scalar.cu, so both declare the same workload and the same
// buffers and differ only in how run() moves the bytes.
#pragma once
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

// 2^26 + 3 floats = 256 MiB per buffer. 512 MiB of traffic per run is 10x H100's 50 MB L2, so the copy
// streams from HBM whether or not the harness flushes L2 (>= 160 us at H100 SXM's 3.35 TB/s peak). The
// +3 makes n deliberately not a multiple of 4: the float4 kernel's scalar tail then runs in every checked
// run, so the harness verifies it instead of it being dead code.
inline constexpr int64_t kCopyScalarN = (int64_t{1} << 26) + 3;

// A parameter axis: `aisp bench run -t ch07:copy_scalar --axis n=2^16..2^28:2` sweeps the size from
// L2-resident to HBM-bound (the scaling analysis fits bandwidth against it).
inline int64_t copy_scalar_n() { return aisp::axis("n", kCopyScalarN); }

inline aisp::Workload copy_scalar_workload() {
  const int64_t n = copy_scalar_n();
  aisp::Workload w;
  w.params = {{"n", n}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * static_cast<double>(n) * sizeof(float);  // read `in` once, write `out` once
  w.items = static_cast<double>(n);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class CopyScalarBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return copy_scalar_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};
