// ch03 double_buffered_batch_provisioning, baseline: prepare, copy, compute, wait; one batch at a time.
//
// Technique: one pinned staging buffer. For each batch the CPU prepares it into the staging buffer,
// queues the H2D copy and the GEMM, and then waits for the stream, because the next batch will be
// written into the same staging buffer (and a naive step loop waits every step anyway).
// Why it is slow: CPU and GPU take turns. While the CPU converts a batch the GPU idles; while the GPU
// copies and multiplies, the CPU idles. The step time is prep + copy + GEMM + the wake-up latency of
// the wait, and neither side is ever more than ~50-60% busy.
// Expected on Hopper: 8 x (~60-120 us prep + ~20 us copy + ~50-70 us GEMM) = ~1.1-1.7 ms per run.
// Timing: run() first waits for the harness stream to start (open_host_window), so the CPU preparation
// of the first batch is inside the timed window like every other step.
#include "double_buffered_batch_provisioning.cuh"

namespace {

class BaselineDoubleBufferedBatchProvisioning : public ProvisioningBase {
 public:
  void setup(aisp::Context& ctx) override {
    ProvisioningBase::setup(ctx);
    const int64_t per_batch = ctx.param("rows") * ctx.param("features");
    raw_ = make_raw_samples(ctx.param("batches") * per_batch);
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&staging_), per_batch * sizeof(float), cudaHostAllocDefault));
    x_ = static_cast<float*>(ctx.scratch("x", per_batch * sizeof(float)));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "double_buffered_batch_provisioning (serialized)");
    const int64_t rows = ctx.param("rows"), features = ctx.param("features"), per_batch = rows * features;
    for (int64_t b = 0; b < ctx.param("batches"); ++b) {
      prepare_batch(raw_.get() + b * per_batch, staging_, rows, features, b * rows);
      AISP_CUDA_CHECK(cudaMemcpyAsync(x_, staging_, per_batch * sizeof(float), cudaMemcpyHostToDevice, s));
      provisioning_layer(ctx, x_, b);
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // the staging buffer is reused by the next batch
    }
  }

  void teardown(aisp::Context&) override {
    if (staging_) AISP_CUDA_CHECK(cudaFreeHost(staging_));
    staging_ = nullptr;
    raw_.reset();
  }
  std::string technique() const override { return "serialized: CPU prep -> H2D -> GEMM -> wait, one staging buffer"; }

 private:
  std::unique_ptr<uint8_t[]> raw_;
  float* staging_ = nullptr;
  float* x_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineDoubleBufferedBatchProvisioning)
