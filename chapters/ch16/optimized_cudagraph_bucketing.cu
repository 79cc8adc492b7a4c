// ch16 cudagraph_bucketing, optimized: one CUDA graph per batch-size bucket (cudagraph_bucketing.cuh).
//
// Technique: setup() captures one decode step (17 kernels) six times on a private stream, with grids of 1,
// 2, 4, 8, 16 and 32 blocks, and instantiates and uploads each graph. run() launches, per step, the graph of
// the smallest bucket that holds the step's batch (vLLM's cudagraph_capture_sizes): the step's real batch is
// read on the device, so the padded blocks exit at once and one graph serves every batch in its bucket.
// While the harness captures run() (K10), each graph is spliced in as a child node (ch12's graph_splice.cuh).
// Why it is faster: 24 graph launches instead of 408 kernel launches; the driver laid out each step's 17
// launches at instantiation and the GPU walks them with short inter-kernel gaps. The price: padded grids
// (at most 2x the blocks, all idle) and six graphs' memory.
// Expected on H100: ~1.2 ms, ~1.9x over eager. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 2.002 ms, 1.20x [1.16, 1.24] with the earlier GPU-bound matvec; the current
// code (docs/measurements/closing_calls_20261128.md, all checks passed): H100 1.665 ms, 1.226x [1.188, 1.293],
// FASTER; H200 1.658 ms, 1.212x [1.169, 1.361], FASTER: still ~1.2x, not the ~1.9x expected.
#include <array>

#include "../ch12/graph_splice.cuh"
#include "cudagraph_bucketing.cuh"

namespace {

constexpr std::array<int, 6> kBuckets = {1, 2, 4, 8, 16, 32};

int bucket_of(int batch) {
  for (int i = 0; i < static_cast<int>(kBuckets.size()); ++i)
    if (batch <= kBuckets[i]) return i;
  throw std::runtime_error("cudagraph_bucketing: batch larger than the largest bucket");
}

class BucketedGraphs : public CudagraphBucketingBase {
 public:
  std::string technique() const override { return "one CUDA graph per batch bucket {1..32}, padded batch, 1 launch per step"; }
  void setup(aisp::Context& ctx) override {
    CudagraphBucketingBase::setup(ctx);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&capture_, cudaStreamNonBlocking));
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      AISP_CUDA_CHECK(cudaStreamBeginCapture(capture_, cudaStreamCaptureModeThreadLocal));
      try {
        step(ctx, capture_, kBuckets[i]);
      } catch (...) {
        cudaStreamEndCapture(capture_, &graphs_[i]);
        throw;
      }
      AISP_CUDA_CHECK(cudaStreamEndCapture(capture_, &graphs_[i]));
      AISP_CUDA_CHECK(cudaGraphInstantiate(&execs_[i], graphs_[i], 0));
      AISP_CUDA_CHECK(cudaGraphUpload(execs_[i], ctx.stream()));
    }
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    start(ctx);
    for (int s = 0; s < kCgSteps; ++s) {
      const int b = bucket_of(cg_batch(s));
      graph_splice::launch(ctx.stream(), execs_[b], graphs_[b]);
    }
  }
  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      if (execs_[i]) cudaGraphExecDestroy(execs_[i]);
      if (graphs_[i]) cudaGraphDestroy(graphs_[i]);
      execs_[i] = nullptr, graphs_[i] = nullptr;
    }
    if (capture_) cudaStreamDestroy(capture_);
    capture_ = nullptr;
  }

 private:
  cudaStream_t capture_ = nullptr;
  std::array<cudaGraph_t, kBuckets.size()> graphs_{};
  std::array<cudaGraphExec_t, kBuckets.size()> execs_{};
};

}  // namespace

AISP_BENCHMARK(BucketedGraphs)
