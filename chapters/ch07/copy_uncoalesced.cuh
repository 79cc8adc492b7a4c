// copy_uncoalesced: out = in over a rows x cols float matrix (row-major), element for element. Both
// variants compute exactly out[i] = in[i] for every i, so their outputs are identical bit for bit; they
// differ only in which element each thread of a warp is given. Shared by baseline_copy_uncoalesced.cu and
// optimized_copy_uncoalesced.cu.
#pragma once
#include "aisp/aisp.hpp"

// 8192 x 8192 floats = 256 MiB per buffer (512 MiB per run, 10x H100's 50 MB L2). cols = 8192 puts
// vertically adjacent elements 32 KiB apart, so a warp walking a column touches 32 different 128 B lines.
// Both sizes must stay <= 65535: each is a grid.y dimension in one of the two variants.
inline constexpr int64_t kCopyUncoalescedRows = 8192;
inline constexpr int64_t kCopyUncoalescedCols = 8192;

inline aisp::Workload copy_uncoalesced_workload() {
  const double n = static_cast<double>(kCopyUncoalescedRows) * kCopyUncoalescedCols;
  aisp::Workload w;
  w.params = {{"rows", kCopyUncoalescedRows}, {"cols", kCopyUncoalescedCols}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * n * sizeof(float);  // each element read once and written once
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class CopyUncoalescedBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return copy_uncoalesced_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("in", aisp::DType::f32, {rows, cols});
    ctx.output("out", aisp::DType::f32, {rows, cols});
  }
};
