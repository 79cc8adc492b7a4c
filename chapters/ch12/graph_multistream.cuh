// graph_multistream: four independent 50-link chains (the launch_chain.cuh kernel), one per 4 Ki-float
// slice of x, each on its own stream: the fork/join shape of a step with independent branches (attention
// heads scheduled separately, a model's parallel towers, several requests). Shared by
// baseline_graph_multistream.cu (eager: fork four streams with an event, 200 launches, join) and
// optimized_graph_multistream.cu (the same fork/join captured once into one CUDA graph in setup(): stream
// capture follows the events across streams, so the graph has four parallel branches). Same kernels on the
// same slices: outputs match bit for bit.
//
// Launch-bound like launch_chain.cuh, so both run()s open the timed window on the host.
#pragma once
#include <cstdint>

#include "launch_chain.cuh"

inline constexpr int64_t kBranches = 4, kBranchLinks = 50, kBranchN = int64_t{1} << 12;

class GraphMultistreamBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"branches", kBranches}, {"links", kBranchLinks}, {"n", kBranchN}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kBranches * kBranchN * sizeof(float) + 2.0 * kBranches * kBranchLinks * sizeof(float);
    w.flops = 2.0 * kBranches * kBranchN * kBranchLinks;
    w.items = static_cast<double>(kBranches * kBranchLinks);
    w.item_unit = "links";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("branches");
    ctx.input("x", aisp::DType::f32, {b, ctx.param("n")});
    ctx.input("coef", aisp::DType::f32, {b, 2 * ctx.param("links")}, aisp::Fill::uniform(0.97, 1.03));
    ctx.output("y", aisp::DType::f32, {b, ctx.param("n")});
    AISP_CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    for (int i = 0; i < kBranches; ++i) {
      AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&branch_[i], cudaStreamNonBlocking));
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(&join_[i], cudaEventDisableTiming));
    }
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    for (int i = 0; i < kBranches; ++i) {
      if (branch_[i]) cudaStreamDestroy(branch_[i]);
      if (join_[i]) cudaEventDestroy(join_[i]);
    }
    if (fork_) cudaEventDestroy(fork_);
  }

 protected:
  // The whole step issued from `origin`: fork the branch streams, one chain per branch, join them back.
  void issue(aisp::Context& ctx, cudaStream_t origin) {
    const int64_t n = ctx.param("n"), links = ctx.param("links");
    const float* x = ctx.buffer("x").as<const float>();
    const float* coef = ctx.buffer("coef").as<const float>();
    float* y = ctx.buffer("y").as<float>();
    AISP_CUDA_CHECK(cudaEventRecord(fork_, origin));
    for (int b = 0; b < kBranches; ++b) {
      AISP_CUDA_CHECK(cudaStreamWaitEvent(branch_[b], fork_));
      launch_chain(branch_[b], x + b * n, y + b * n, coef + b * 2 * links, n, links);
      AISP_CUDA_CHECK(cudaEventRecord(join_[b], branch_[b]));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(origin, join_[b]));
    }
  }

  cudaStream_t branch_[kBranches] = {};
  cudaEvent_t join_[kBranches] = {};
  cudaEvent_t fork_ = nullptr;
};
