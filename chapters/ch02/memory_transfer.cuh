// memory_transfer: a round trip through host memory, device -> host -> device, of a 16 MiB fp32 tensor
// (offloading an activation or optimizer state to the CPU and bringing it back). Shared by
// baseline_memory_transfer.cu (the host buffer is ordinary pageable memory) and
// optimized_memory_transfer.cu (the host buffer is page-locked). Both make the same two
// cudaMemcpyAsync calls on the harness stream; only the kind of host memory differs.
// The output is the input after the round trip (bit-exact), so it follows every fresh input.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 4 Mi floats = 16 MiB each way. At ~50 GB/s (pinned, PCIe Gen5 x16) that is ~0.33 ms per direction:
// long enough that the per-call latency (~10 us) is noise, short enough to keep the pageable baseline
// near 2 ms.
inline constexpr int64_t kTransferN = int64_t{1} << 22;

inline aisp::Workload memory_transfer_workload() {
  const double bytes = static_cast<double>(kTransferN) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", kTransferN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * bytes;  // device memory: `in` read by the D2H copy, `out` written by the H2D copy
  w.items = 2.0 * bytes;  // what crosses PCIe: 16 MiB each way
  w.item_unit = "PCIe bytes";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class MemoryTransferBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return memory_transfer_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};

// The round trip both variants run: device -> host buffer, then host buffer -> device, in stream order.
inline void round_trip_through_host(aisp::Context& ctx, float* host) {
  const aisp::Buffer in = ctx.buffer("in"), out = ctx.buffer("out");
  AISP_CUDA_CHECK(cudaMemcpyAsync(host, in.data, in.bytes(), cudaMemcpyDeviceToHost, ctx.stream()));
  AISP_CUDA_CHECK(cudaMemcpyAsync(out.data, host, out.bytes(), cudaMemcpyHostToDevice, ctx.stream()));
}
