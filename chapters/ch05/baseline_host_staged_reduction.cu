// ch05 host_staged_reduction, baseline: copy the whole tensor to the host, reduce it there, and copy the
// row sums back to the device.
//
// Technique: cudaMemcpyAsync D2H of 16 MiB into a pinned host buffer, wait, sum each row on the CPU (one
// thread, eight fp64 accumulators so the loop is not one long dependency chain and vectorizes), then
// copy the 8 KiB of row sums to the device output. The host buffers are pinned (allocated in setup()),
// so this measures where the reduction runs, not pageable-copy overhead (ch02 memory_transfer covers
// that).
// Why it is slow: the data crosses PCIe to be read once. 16 MiB at ~50 GB/s is ~0.33 ms before the CPU
// starts, and one core then streams 16 MiB from DRAM at ~10-20 GB/s (~1 ms). The GPU, which holds the
// data in HBM at 3.35 TB/s, idles throughout. More CPU threads would shrink the second part, never the
// first.
// Expected on Hopper: ~1.2-2 ms per run, dominated by the host pass and the PCIe copy.
// Timing note: the stream synchronize after the D2H copy waits on the harness's held stream, so the
// harness drops its blocking kernel for this variant and the host reduction falls inside the window.
#include "../common/host_pipeline.hpp"
#include "host_staged_reduction.cuh"

namespace {

// One row: eight independent fp64 partial sums (cols is a multiple of 8), combined at the end.
float host_row_sum(const float* row, int64_t cols) {
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int64_t j = 0; j < cols; j += 8)
    for (int u = 0; u < 8; ++u) acc[u] += static_cast<double>(row[j + u]);
  return static_cast<float>(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
}

class BaselineHostStagedReduction : public HostStagedReductionBase {
 public:
  void setup(aisp::Context& ctx) override {
    HostStagedReductionBase::setup(ctx);
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    if (cols % 8 != 0) throw std::runtime_error("host_staged_reduction: cols must be a multiple of 8");
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_x_), rows * cols * sizeof(float), cudaHostAllocDefault));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_sums_), rows * sizeof(float), cudaHostAllocDefault));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::require_eager(s, "host_staged_reduction (host reduce)");
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    const aisp::Buffer x = ctx.buffer("x"), out = ctx.buffer("row_sums");
    AISP_CUDA_CHECK(cudaMemcpyAsync(host_x_, x.data, x.bytes(), cudaMemcpyDeviceToHost, s));
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // the CPU can only start once the data has arrived
    for (int64_t r = 0; r < rows; ++r) host_sums_[r] = host_row_sum(host_x_ + r * cols, cols);
    AISP_CUDA_CHECK(cudaMemcpyAsync(out.data, host_sums_, out.bytes(), cudaMemcpyHostToDevice, s));
  }

  void teardown(aisp::Context&) override {
    if (host_x_) AISP_CUDA_CHECK(cudaFreeHost(host_x_));
    if (host_sums_) AISP_CUDA_CHECK(cudaFreeHost(host_sums_));
    host_x_ = host_sums_ = nullptr;
  }
  std::string technique() const override { return "D2H copy of the tensor, single-thread fp64 row sums on the CPU, H2D of the sums"; }

 private:
  float* host_x_ = nullptr;
  float* host_sums_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineHostStagedReduction)
