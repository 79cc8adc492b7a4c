// ch11 streams, optimized: the batch in 16 chunks, round-robin over 4 streams, each chunk's H2D -> kernel
// -> D2H in order on its stream, so copies in both directions and the compute run at the same time.
//
// Technique: the classic copy/compute overlap. The streams are created in setup(); run() forks them from
// the harness stream with one event (nothing starts before the timed window opens) and joins each back
// with its own event (the harness stream waits for all four before run() returns), so the whole pipeline
// lies inside the window and is capturable into one graph.
// Why it is faster: H100 has separate copy engines for each direction and PCIe is full duplex, so once the
// pipeline fills, chunk i+1's H2D, chunk i's kernel and chunk i-1's D2H proceed together. Time ~ the
// longest of the three steps plus one chunk of each of the other two (fill and drain): with 16 chunks,
// ~0.65 ms + 2 x 0.04 ms instead of the sum.
// Expected on Hopper: ~0.75-0.9 ms vs ~1.8 ms, ~2.2-2.5x (target >= 1.8x); below the ideal 3x because the
// kernel is not quite as long as a copy and concurrent kernels slow the DMA slightly (HBM contention is
// negligible at these rates).
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.759 ms -> 871.4 us, 2.02x [1.98, 2.06].
#include <algorithm>

#include "streams.cuh"

namespace {

constexpr int kStreams = 4;
constexpr int64_t kChunks = 16;

class OptimizedStreams : public StreamsBase {
 public:
  void setup(aisp::Context& ctx) override {
    StreamsBase::setup(ctx);
    AISP_CUDA_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    for (int i = 0; i < kStreams; ++i) {
      AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&streams_[i], cudaStreamNonBlocking));
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(&joins_[i], cudaEventDisableTiming));
    }
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    const int64_t n = ctx.param("n"), chunk = (n + kChunks - 1) / kChunks;
    AISP_CUDA_CHECK(cudaEventRecord(fork_, s));
    for (int i = 0; i < kStreams; ++i) AISP_CUDA_CHECK(cudaStreamWaitEvent(streams_[i], fork_));
    for (int64_t c = 0; c < kChunks; ++c) {
      const int64_t begin = c * chunk;
      if (begin < n) stage(ctx, streams_[c % kStreams], begin, std::min(chunk, n - begin));
    }
    for (int i = 0; i < kStreams; ++i) {
      AISP_CUDA_CHECK(cudaEventRecord(joins_[i], streams_[i]));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(s, joins_[i]));
    }
  }

  void teardown(aisp::Context& ctx) override {
    StreamsBase::teardown(ctx);
    for (int i = 0; i < kStreams; ++i) {
      if (joins_[i]) cudaEventDestroy(joins_[i]);
      if (streams_[i]) cudaStreamDestroy(streams_[i]);
    }
    if (fork_) cudaEventDestroy(fork_);
  }

  std::string technique() const override { return "16 chunks over 4 streams: H2D, kernel and D2H overlap"; }

 private:
  cudaStream_t streams_[kStreams] = {};
  cudaEvent_t joins_[kStreams] = {};
  cudaEvent_t fork_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedStreams)
