// Honest control: captures its own CUDA graph of the copy once in setup() (on a private stream; the
// buffers never move, so the graph stays valid) and launches the executable graph on ctx.stream() in
// run(). When the harness itself captures run() (K10), a graph cannot be launched into a capturing
// stream, so run() splices the same graph in as a child node of the harness's capture instead.
// Must pass every check (graphs launched on the harness stream are ordinary timed work).
#include "validity_common.cuh"

struct HonestInternalGraph : fixture::HonestCopy {
  cudaStream_t capture_stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking));
    AISP_CUDA_CHECK(cudaStreamBeginCapture(capture_stream, cudaStreamCaptureModeThreadLocal));
    cudaError_t launched = validity::copy_async(capture_stream, validity::in_ptr(ctx), validity::out_ptr(ctx), fixture::kN);
    AISP_CUDA_CHECK(cudaStreamEndCapture(capture_stream, &graph));
    AISP_CUDA_CHECK(launched);
    AISP_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    if (!validity::capturing(s)) {
      AISP_CUDA_CHECK(cudaGraphLaunch(exec, s));
      return;
    }
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    cudaGraph_t outer = nullptr;
    const cudaGraphNode_t* deps = nullptr;
    size_t ndeps = 0;
#if CUDART_VERSION >= 13000
    AISP_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &outer, &deps, nullptr, &ndeps));
#else
    AISP_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &outer, &deps, &ndeps));
#endif
    cudaGraphNode_t node = nullptr;
    AISP_CUDA_CHECK(cudaGraphAddChildGraphNode(&node, outer, deps, ndeps, graph));
#if CUDART_VERSION >= 13000
    AISP_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
#else
    AISP_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, 1, cudaStreamSetCaptureDependencies));
#endif
  }
  void teardown(aisp::Context&) override {
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(capture_stream);
  }
  std::string technique() const override { return "validity control: own CUDA graph launched on the harness stream"; }
};

AISP_BENCHMARK(HonestInternalGraph)
