// labs/async_input_pipeline, baseline: a loader with CPU transforms and pageable copies, one batch at a time.
//
// Technique: what a PyTorch DataLoader with num_workers=0, pin_memory=False and a CPU normalize transform
// does. For each batch, on the thread calling run(): pread() the uint8 bytes into heap memory, normalize
// them to fp32 on the CPU, copy the floats to the GPU with cudaMemcpy semantics (cudaMemcpyAsync + stream
// synchronize from pageable memory), then launch the model step.
// Why it is slow: every stage waits for the one before, on one core. The CPU transform turns 2 MiB of
// bytes into 8 MiB of floats (a single-core loop, ~1 ns per element), the copy then moves 4x the bytes
// through the driver's pinned bounce buffers (a second CPU memcpy), and the GPU idles through all of it.
// Expected on Hopper: ~15-25 ms per 16 MiB slice, host dependent (one core's page-cache copy, normalize
// loop and pageable-copy speed set it); the model step itself is a few microseconds per batch.
// Measured (H100 80GB HBM3 VM, 2026-11-28, closing call B): 10.9 ms per slice.
// Timing: run() first waits for the harness stream (open_host_window), so host work is inside the window.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "async_input_pipeline.cuh"

namespace {

class BaselineAsyncInputPipeline : public AsyncInputPipelineBase {
 public:
  std::string technique() const override {
    return "one thread per batch: pread, normalize to fp32 on the CPU, blocking pageable copy of the floats";
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "async_input_pipeline (baseline)");
    const size_t n = batch_bytes();
    for (int64_t b = 0; b < batches_; ++b) {
      read_fully(fd(), reinterpret_cast<char*>(bytes_.data()), n, batch_offset(b));
      for (size_t i = 0; i < n; ++i) floats_[i] = normalize_feature(bytes_[i]);
      // cudaMemcpy semantics; the stream sync also keeps batch b's step from reading floats that batch
      // b+1's copy overwrites.
      AISP_CUDA_CHECK(cudaMemcpyAsync(device_floats_, floats_.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));
      launch_step(ctx, b, device_floats_);
    }
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    bytes_.assign(batch_bytes(), 0);  // pageable and touched now, not in the first sample
    floats_.assign(batch_bytes(), 0.0f);
    device_floats_ = static_cast<float*>(ctx.scratch("batch_f32", batch_bytes() * sizeof(float)));
  }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<float> floats_;
  float* device_floats_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineAsyncInputPipeline)
