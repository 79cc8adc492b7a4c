// ch12 graph_update, baseline: every run() re-captures the step and instantiates a new executable graph.
//
// Technique: "graphs, but rebuilt whenever something changes", the naive way to use graphs when pointers
// move: capture, cudaGraphInstantiate, launch, and destroy the previous executable.
// Why it is slow: instantiation is the expensive part of a graph's life: the driver validates every node,
// builds the device-side work descriptors and uploads them, ~1.5-3 us per kernel node, so each run pays
// ~100-200 us of host time for 64 nodes before the first kernel starts.
// Expected on Hopper: capture (~64 x 1 us) + instantiate (~100-200 us) + ~70 us of GPU chain = ~0.25-0.35 ms.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 479.4 us (median).
#include "graph_update.cuh"

namespace {

class BaselineGraphUpdate : public GraphUpdateBase {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open_eager(s, "graph_update (re-instantiate)");
    // The window opening waited for the stream, so the previous run's graph has finished: free it now.
    if (exec_) AISP_CUDA_CHECK(cudaGraphExecDestroy(exec_));
    exec_ = nullptr;
    cudaGraph_t g = capture_step(ctx);
    cudaError_t inst = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    AISP_CUDA_CHECK(inst);
    AISP_CUDA_CHECK(cudaGraphLaunch(exec_, s));
  }
  std::string technique() const override { return "re-capture + cudaGraphInstantiate every run"; }
};

}  // namespace

AISP_BENCHMARK(BaselineGraphUpdate)
