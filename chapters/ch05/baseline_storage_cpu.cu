// ch05 storage_cpu, baseline: read() the whole file into a pageable buffer, then a blocking copy.
//
// Technique: what np.fromfile(...) followed by torch.from_numpy(...).cuda() does: one thread reads the
// 16 MiB file into ordinary heap memory (pread loop), then copies it to the GPU with cudaMemcpy
// semantics (cudaMemcpyAsync + stream synchronize), then the add kernel runs.
// Why it is slow: everything is serial on one thread. The read is a kernel memcpy from the page cache
// into the user buffer (one core, ~5-10 GB/s); the copy then goes through the driver's pinned bounce
// buffers with another single-core memcpy (~10-25 GB/s; ch02 memory_transfer) before DMA; the GPU waits
// for the whole file before its first byte moves, and the disk/page cache waits while the GPU copies.
// Expected on Hopper: ~1.6-3 ms for the read + ~0.7-1.6 ms for the pageable copy = ~2.5-4.5 ms per run
// (host dependent). Measures the CACHED path: the file was just written (see storage_cpu.cuh).
// Timing: run() first waits for the harness stream to start (open_host_window), so the read is inside
// the timed window.
#include "storage_cpu.cuh"

namespace {

class BaselineStorageCpu : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return storage_cpu_workload(); }
  void setup(aisp::Context& ctx) override {
    declare_storage_cpu_buffers(ctx);
    file_ = std::make_unique<TempDataFile>(ctx.param("n"), false);
    host_ = std::make_unique<float[]>(ctx.param("n"));
    std::memset(host_.get(), 0, file_->bytes());  // fault the pages in now, not in the first sample
    loaded_ = static_cast<float*>(ctx.scratch("loaded", file_->bytes()));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "storage_cpu (synchronous)");
    read_fully(file_->buffered_fd(), reinterpret_cast<char*>(host_.get()), file_->bytes(), 0);
    AISP_CUDA_CHECK(cudaMemcpyAsync(loaded_, host_.get(), file_->bytes(), cudaMemcpyHostToDevice, s));
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // cudaMemcpy semantics: the data is on the GPU when it returns
    launch_file_plus_input(ctx, loaded_);
  }

  void teardown(aisp::Context&) override {
    file_.reset();
    host_.reset();
  }
  std::string technique() const override { return "one thread: read() whole file into pageable memory, then blocking cudaMemcpy"; }

 private:
  std::unique_ptr<TempDataFile> file_;
  std::unique_ptr<float[]> host_;
  float* loaded_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineStorageCpu)
