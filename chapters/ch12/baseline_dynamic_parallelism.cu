// ch12 dynamic_parallelism, baseline: host-driven recursion, one level at a time.
//
// Technique: breadth-first on the host: a kernel processes every segment of the current level (one block
// each) and appends the children of split segments to the next level's list (atomicAdd on a counter);
// the host copies the counter back, synchronizes, and launches the next level with that many blocks.
// Why it is slow: the host must know the next level's size before launching it, so every level costs a
// launch, a 4-byte D2H copy and a synchronize (~15-25 us in a VM) on top of a few us of GPU work, and the
// GPU idles during each round trip. Up to 11 levels.
// Expected on Hopper: ~11 x 20-25 us = ~0.2-0.3 ms on an H100 VM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 313.1 us (median).
#include <utility>

#include "dynamic_parallelism.cuh"

namespace {

struct Segment {
  int64_t lo, len;
};

__global__ void refine_root(Segment* segs, int64_t n) {
  segs[0] = {0, n};
}

__global__ void __launch_bounds__(kRefineThreads) refine_level(const float* __restrict__ x, float* __restrict__ y,
                                                               int* __restrict__ depth_out, const Segment* __restrict__ cur,
                                                               Segment* __restrict__ next, int* __restrict__ next_count,
                                                               int depth) {
  const Segment seg = cur[blockIdx.x];
  if (refine_segment(x, y, depth_out, seg.lo, seg.len, depth) && threadIdx.x == 0) {
    const int at = atomicAdd(next_count, 2);
    next[at] = {seg.lo, seg.len / 2};
    next[at + 1] = {seg.lo + seg.len / 2, seg.len / 2};
  }
}

class BaselineDynamicParallelism : public DynamicParallelismBase {
 public:
  void setup(aisp::Context& ctx) override {
    DynamicParallelismBase::setup(ctx);
    const int64_t max_segments = ctx.param("n") / ctx.param("min_len");  // leaves never go below min_len
    for (int i = 0; i < 2; ++i)
      segs_[i] = static_cast<Segment*>(ctx.scratch("segments" + std::to_string(i), max_segments * sizeof(Segment)));
    count_dev_ = static_cast<int*>(ctx.scratch("next_count", sizeof(int)));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&count_host_), sizeof(int), cudaHostAllocDefault));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open_eager(s, "dynamic_parallelism (host-driven)");
    const float* x = ctx.buffer("x").as<const float>();
    float* y = ctx.buffer("y").as<float>();
    int* depth_out = ctx.buffer("depth").as<int>();
    refine_root<<<1, 1, 0, s>>>(segs_[0], ctx.param("n"));
    AISP_LAUNCH_CHECK();
    int count = 1, cur = 0;
    for (int depth = 0; count > 0; ++depth, cur ^= 1) {
      AISP_CUDA_CHECK(cudaMemsetAsync(count_dev_, 0, sizeof(int), s));
      refine_level<<<count, kRefineThreads, 0, s>>>(x, y, depth_out, segs_[cur], segs_[cur ^ 1], count_dev_, depth);
      AISP_LAUNCH_CHECK();
      AISP_CUDA_CHECK(cudaMemcpyAsync(count_host_, count_dev_, sizeof(int), cudaMemcpyDeviceToHost, s));
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));
      count = *count_host_;
    }
  }

  void teardown(aisp::Context&) override {
    if (count_host_) cudaFreeHost(count_host_);
    count_host_ = nullptr;
  }

  std::string technique() const override { return "host-driven recursion: one launch + counter read-back per level"; }

 private:
  Segment* segs_[2] = {nullptr, nullptr};
  int* count_dev_ = nullptr;
  int* count_host_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineDynamicParallelism)
