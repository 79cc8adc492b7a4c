// gradient_fusion (seed ch04 gradient_fusion): data-parallel gradients all-reduced as 128 tensors of 128 KiB,
// one NCCL call each, or as one 16 MiB bucket. The gradients of one step sit contiguously in one buffer (as a
// framework's flat gradient bucket does), so the two variants move the same bytes and add the same numbers.
//
// Why one bucket wins: a small all-reduce is latency-bound, not bandwidth-bound. Every NCCL call pays a
// kernel launch and a handshake with the peer (~10 us on NVLink for a 128 KiB LL128 all-reduce), so 128 calls
// cost ~1.3 ms of mostly waiting; one 16 MiB call runs at the link's bandwidth (~50-60 us at the ~350 GB/s
// busbw hw_anchors §5 gives for ring collectives with NVLS off). Expected on 2 H100s: 10x or more.
// Measured on 2 H200s (2026-11-28, a run made INVALID by a K16 false positive since fixed, so no verdict):
// 1.647 ms vs 94.6 us, 17.4x.
#pragma once
#include "nccl_ranks.cuh"

namespace gradient_fusion {

inline constexpr int64_t kTensors = 128, kElems = 32768;  // 128 tensors x 128 KiB = 16 MiB of fp32 gradients

struct Base : ch04::RankedBenchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"tensors", kTensors}, {"elems", kElems}};
    w.precision = aisp::DType::f32;
    // Local HBM traffic of one step: the gradients read once, the sums written once.
    w.bytes = 2.0 * kTensors * kElems * sizeof(float);
    w.flops = double(kTensors) * kElems;  // one add per element per peer
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("grads", aisp::DType::f32, {kTensors, kElems});  // this rank's gradients (its own stream)
    ctx.output("reduced", aisp::DType::f32, {kTensors, kElems});  // the sum over ranks
    connect(ctx);
  }
};

}  // namespace gradient_fusion
