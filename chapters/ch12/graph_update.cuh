// graph_update: a step whose graph must change every time it runs. The step is a 64-link chain (the
// launch_chain.cuh kernel) over a 16 KiB vector, staged through a workspace that rotates over 4 slots from
// one run() to the next (as a ring of input buffers or a caching allocator hands a step different
// addresses): link 0 copies-and-transforms x into the current slot, links 1..62 update the slot in place,
// link 63 writes y. The kernel arguments (pointers) differ every run; the topology never does.
// Shared by baseline_graph_update.cu (re-capture and re-instantiate each run) and optimized_graph_update.cu
// (re-capture, then cudaGraphExecUpdate into the one executable graph). Same kernels, same order: outputs
// match bit for bit, and do not depend on the slot.
//
// The cost being optimized is host work (instantiation), so both run()s open the timed window on the host
// (../common/host_window.hpp). Neither can be captured into the harness's own graph (each captures a graph
// itself), so both say so and the capture-replay check (K10) is not applicable; the CUPTI audit still
// checks every kernel they launch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "launch_chain.cuh"

inline constexpr int64_t kUpdateLinks = 64, kUpdateSlots = 4;

class GraphUpdateBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kChainN}, {"links", kUpdateLinks}, {"slots", kUpdateSlots}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kChainN * sizeof(float) + 2.0 * kUpdateLinks * sizeof(float);
    w.flops = 2.0 * kChainN * kUpdateLinks;
    w.items = 1;
    w.item_unit = "graph steps";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("coef", aisp::DType::f32, {2 * ctx.param("links")}, aisp::Fill::uniform(0.97, 1.03));
    ctx.output("y", aisp::DType::f32, {n});
    for (int64_t i = 0; i < ctx.param("slots"); ++i)
      slots_.push_back(static_cast<float*>(ctx.scratch("slot" + std::to_string(i), n * sizeof(float))));
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking));
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    if (exec_) cudaGraphExecDestroy(exec_);
    if (capture_stream_) cudaStreamDestroy(capture_stream_);
    exec_ = nullptr, capture_stream_ = nullptr;
  }

 protected:
  // Captures this run's step (next slot of the ring) on the private stream; the caller owns the graph.
  cudaGraph_t capture_step(aisp::Context& ctx) {
    const int64_t n = ctx.param("n"), links = ctx.param("links");
    float* slot = slots_[next_slot_++ % slots_.size()];
    const float* coef = ctx.buffer("coef").as<const float>();
    cudaGraph_t g = nullptr;
    AISP_CUDA_CHECK(cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeThreadLocal));
    for (int64_t l = 0; l < links; ++l) {
      const float* in = l == 0 ? ctx.buffer("x").as<const float>() : slot;
      float* out = l == links - 1 ? ctx.buffer("y").as<float>() : slot;
      chain_link<<<chain_blocks(n), 256, 0, capture_stream_>>>(in, out, coef, static_cast<int>(l), n);
    }
    cudaError_t launched = cudaGetLastError();
    AISP_CUDA_CHECK(cudaStreamEndCapture(capture_stream_, &g));
    AISP_CUDA_CHECK(launched);
    return g;
  }

  cudaStream_t capture_stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;  // the executable graph the variant launches
  std::vector<float*> slots_;
  size_t next_slot_ = 0;
};
