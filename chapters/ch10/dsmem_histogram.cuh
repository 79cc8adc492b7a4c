// dsmem_histogram: a 65536-bin histogram of 32 Mi int32 keys (uniform in [0, 65535]): token-id counts,
// a radix-sort digit pass with 16-bit digits, a hashed feature count. 64 Ki 32-bit counters are 256 KiB,
// more than one block's 227 KiB of shared memory, so the textbook fix - a private histogram per block in
// shared memory, merged at the end - does not fit. The variants differ in where the counting happens:
//   baseline_dsmem_histogram.cu   every key is one atomicAdd on the output in global memory (an L2 atomic)
//   optimized_dsmem_histogram.cu  a cluster of 8 blocks holds one private histogram spread over their 8
//                                 shared memories (8192 bins, 32 KiB each): a key is an atomicAdd on the
//                                 owning block's shared memory, remote for 7 of 8 keys (DSMEM); at the end
//                                 each block adds its nonzero bins to the output with global atomics
// Both produce exact integer counts (addition of integers is order-free), so outputs agree bit for bit.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace dsmem_histogram {

inline constexpr int64_t kKeys = int64_t{32} << 20, kBins = 65536;

inline aisp::Workload workload() {
  aisp::Workload w;
  w.params = {{"keys", kKeys}, {"bins", kBins}};
  w.precision = aisp::DType::i32;
  w.bytes = static_cast<double>(kKeys) * 4 + static_cast<double>(kBins) * 4;  // keys read once, counts written once
  w.flops = 0;
  w.items = static_cast<double>(kKeys);
  w.item_unit = "keys";
  return w;
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return dsmem_histogram::workload(); }
  void setup(aisp::Context& ctx) override {
    ctx.input("keys", aisp::DType::i32, {ctx.param("keys")}, aisp::Fill::int_range(0, ctx.param("bins") - 1));
    ctx.output("counts", aisp::DType::i32, {ctx.param("bins")});
    setup_variant(ctx);
  }
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }

 protected:
  virtual void setup_variant(aisp::Context&) {}
};

}  // namespace dsmem_histogram
