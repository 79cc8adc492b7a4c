// ch01 pipeline_goodput, baseline: the naive step loop.
//
// Technique: for each batch: cudaMalloc a device buffer, copy the batch from pageable host memory and
// wait for it ("x = batch.cuda()" without pinning), run the layer, synchronize (the step's
// "loss.item()"), cudaFree. Everything the GPU does is correct; it just spends most of the step idle.
// Why it is slow, per 2 MiB batch:
//   cudaMalloc + cudaFree   tens of us of driver work; cudaFree also synchronizes the device
//   pageable copy           staged by the CPU through the driver's bounce buffers: ~10-25 GB/s, so
//                           ~80-200 us, with the GPU idle (ch02 memory_transfer isolates this)
//   synchronize             the host cannot queue the next copy while the GEMM runs, so copy and
//                           compute never overlap
//   GEMM                    ~25 us: the only useful work
// Expected on Hopper: ~150-300 us per batch, ~1.2-2.5 ms for 8 batches, i.e. 10-20% goodput.
// Timing note: the blocking copy waits on the harness's held stream, so the harness drops its blocking
// kernel for this variant; the samples include the host-side allocation and staging, as they must.
#include <memory>

#include "pipeline_goodput.cuh"

namespace {

class BaselinePipelineGoodput : public PipelineGoodputBase {
 public:
  void setup(aisp::Context& ctx) override {
    PipelineGoodputBase::setup(ctx);
    const int64_t count = ctx.param("batches") * ctx.param("rows") * ctx.param("features");
    dataset_ = std::make_unique<float[]>(count);  // pageable: ordinary heap memory, pages touched by the fill
    fill_goodput_dataset(dataset_.get(), count);
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::require_eager(s, "pipeline_goodput (naive loop)");
    const int64_t batch_count = ctx.param("rows") * ctx.param("features");
    const size_t batch_bytes = batch_count * sizeof(float);
    for (int64_t b = 0; b < ctx.param("batches"); ++b) {
      float* raw = nullptr;
      AISP_CUDA_CHECK(cudaMalloc(&raw, batch_bytes));
      std::unique_ptr<float, decltype(&cudaFree)> x(raw, &cudaFree);  // freed per step, and on an error path too
      AISP_CUDA_CHECK(cudaMemcpyAsync(x.get(), dataset_.get() + b * batch_count, batch_bytes, cudaMemcpyHostToDevice, s));
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // blocking copy semantics
      goodput_layer(ctx, x.get(), b);
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // per-step host sync (reading the loss)
      AISP_CUDA_CHECK(cudaFree(x.release()));
    }
  }

  void teardown(aisp::Context&) override { dataset_.reset(); }
  std::string technique() const override {
    return "per batch: cudaMalloc, blocking copy from pageable memory, GEMM, sync, cudaFree";
  }

 private:
  std::unique_ptr<float[]> dataset_;
};

}  // namespace

AISP_BENCHMARK(BaselinePipelineGoodput)
