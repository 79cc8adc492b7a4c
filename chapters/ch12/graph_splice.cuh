// Launching a benchmark's own CUDA graph on the harness stream, also while the harness captures run()
// (the capture-replay check, K10): a graph cannot be launched into a capturing stream, so then the same
// graph is spliced into the harness's capture as a child-graph node, ordered after what was captured so
// far (the pattern of tests/validity/optimized_honest_internal_graph.cu).
#pragma once
#include <cuda_runtime.h>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

namespace graph_splice {

// The node the capture on `s` would attach next work to, as (graph, dependencies).
struct CaptureCursor {
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t count = 0;
};

inline CaptureCursor cursor(cudaStream_t s) {
  CaptureCursor c;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
#if CUDART_VERSION >= 13000
  AISP_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &c.graph, &c.deps, nullptr, &c.count));
#else
  AISP_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &c.graph, &c.deps, &c.count));
#endif
  return c;
}

// Later work captured on `s` depends on `node` only.
inline void advance(cudaStream_t s, cudaGraphNode_t node) {
#if CUDART_VERSION >= 13000
  AISP_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
#else
  AISP_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, 1, cudaStreamSetCaptureDependencies));
#endif
}

inline void launch(cudaStream_t s, cudaGraphExec_t exec, cudaGraph_t graph) {
  if (!host_window::capturing(s)) {
    AISP_CUDA_CHECK(cudaGraphLaunch(exec, s));
    return;
  }
  CaptureCursor c = cursor(s);
  cudaGraphNode_t node = nullptr;
  AISP_CUDA_CHECK(cudaGraphAddChildGraphNode(&node, c.graph, c.deps, c.count, graph));
  advance(s, node);
}

// A graph a benchmark captures once in setup() from a private stream and launches with launch() in run():
// the capture/instantiate/upload (to the harness stream)/teardown steps the graph variants of this chapter share.
// `issue(stream)` enqueues the work to capture; it may fork to other streams as long as it joins back (graph_multistream).
class CapturedGraph {
 public:
  template <class Issue>
  void capture(aisp::Context& ctx, Issue&& issue) {
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&origin_, cudaStreamNonBlocking));
    AISP_CUDA_CHECK(cudaStreamBeginCapture(origin_, cudaStreamCaptureModeThreadLocal));
    try {
      issue(origin_);
    } catch (...) {
      cudaStreamEndCapture(origin_, &graph_);
      throw;
    }
    AISP_CUDA_CHECK(cudaStreamEndCapture(origin_, &graph_));
    AISP_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    AISP_CUDA_CHECK(cudaGraphUpload(exec_, ctx.stream()));
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

  void launch(cudaStream_t s) const { graph_splice::launch(s, exec_, graph_); }

  // The caller synchronizes the device first (the graph may still run).
  void destroy() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (origin_) cudaStreamDestroy(origin_);
    exec_ = nullptr, graph_ = nullptr, origin_ = nullptr;
  }

 private:
  cudaStream_t origin_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace graph_splice
