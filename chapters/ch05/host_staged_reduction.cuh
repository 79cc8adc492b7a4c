// host_staged_reduction: per-row sums of a [rows, cols] fp32 tensor that lives on the GPU (a batch of
// loaded samples, a gradient shard, per-token statistics for logging), needed both on the host and on
// the device. Shared by baseline_host_staged_reduction.cu (copy the tensor to the host and reduce it
// there) and optimized_host_staged_reduction.cu (reduce on the GPU, copy only the row sums).
// Both variants end in the same state: the row sums in a pinned host array and in the device output.
//
// Exactness: both sides accumulate in fp64 and round once to fp32. A 2048-term fp64 sum of fp32 values
// is within ~2048 * 2^-53 relative of the exact sum whatever the order, far below fp32's 2^-24, so the
// host's sequential sum and the GPU's tree sum round to the same float (at worst one ulp apart when the
// exact sum sits on a rounding boundary, inside the default fp32 tolerance).
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 2048 x 2048 floats = 16 MiB. Smaller than L2, but the harness flushes L2 before every sample, so the
// GPU reduction reads it from HBM; the host path moves all 16 MiB over PCIe.
inline constexpr int64_t kReduceRows = 2048, kReduceCols = 2048;

inline aisp::Workload host_staged_reduction_workload() {
  const double r = kReduceRows, c = kReduceCols;
  aisp::Workload w;
  w.params = {{"rows", kReduceRows}, {"cols", kReduceCols}};
  w.precision = aisp::DType::f32;  // fp32 data; both variants accumulate in fp64 (see above)
  w.bytes = (r * c + r) * sizeof(float);  // read the tensor once, write the row sums once
  w.flops = r * c;                        // one add per element
  w.items = r * c;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class HostStagedReductionBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return host_staged_reduction_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("x", aisp::DType::f32, {rows, cols});
    ctx.output("row_sums", aisp::DType::f32, {rows});
  }
};
