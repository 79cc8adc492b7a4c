// ch12 dynamic_parallelism, optimized: device-side launch (CUDA dynamic parallelism) replaces the host's
// per-level round trip: the last block of each level to finish launches the next level itself.
//
// Technique: the same breadth-first levels as the baseline, same kernel body, but the decision "how many
// blocks does the next level need" is taken on the GPU. Every block appends its children to the next
// list (atomicAdd), then counts itself done; the block that finishes last (the threadFenceReduction
// pattern: __threadfence, then an atomic ticket) reads the final count and launches the next level with
// `<<<count, 256, 0, cudaStreamTailLaunch>>>`: a tail launch starts when the launching grid has
// completed, so the next level sees all of this level's writes. Per-level counters (one slot per depth)
// are zeroed by one cudaMemsetAsync at the top of run(); the host launches level 0 only. A grid counts as
// complete only once the grids it launched are, so the whole recursion finishes before the harness's stop
// event on the harness stream.
// Built with relocatable device code and the device runtime (this folder's CMakeLists.txt).
// Why it is faster: no host round trip per level (launch + D2H copy + synchronize + wake-up, ~20-30 us in
// a VM): a device-side tail launch costs a few us of GPU front-end time.
// What did not work (measured, H100, 2026-11-25): the textbook recursive form, where every split segment
// launches a 2-block grid for its own halves (fire-and-forget), needs one device launch per split segment
// (~300 here) and ran at 431 us vs the host-driven 318 us (0.74x): device launches are cheap but not free,
// so they must replace round trips, not multiply launches.
// Expected on Hopper: ~11 levels x ~5-8 us = ~60-90 us, 3-4x over the host-driven levels.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 313.1 us -> 221.2 us, 1.42x [1.39, 1.44].
#include "dynamic_parallelism.cuh"

namespace {

struct Segment {
  int64_t lo, len;
};

constexpr int kMaxDepth = 32;  // levels: at most log2(n / min_len) + 1 = 11

struct LevelCounters {
  int next_count[kMaxDepth];   // children appended to level d + 1's list by level d
  int blocks_done[kMaxDepth];  // blocks of level d that have finished
};

// Level `depth`: block b refines cur[b] (level 0: the whole signal, no list).
__global__ void __launch_bounds__(kRefineThreads) refine_level_device(const float* __restrict__ x, float* __restrict__ y,
                                                                      int* __restrict__ depth_out, Segment* cur,
                                                                      Segment* next, LevelCounters* counters,
                                                                      int64_t n, int depth) {
  __shared__ bool last;
  const Segment seg = depth == 0 ? Segment{0, n} : cur[blockIdx.x];
  const bool split = refine_segment(x, y, depth_out, seg.lo, seg.len, depth);
  if (threadIdx.x == 0) {
    if (split) {
      const int at = atomicAdd(&counters->next_count[depth], 2);
      next[at] = {seg.lo, seg.len / 2};
      next[at + 1] = {seg.lo + seg.len / 2, seg.len / 2};
    }
    __threadfence();  // children and count visible before this block counts itself done
    last = atomicAdd(&counters->blocks_done[depth], 1) == static_cast<int>(gridDim.x) - 1;
  }
  __syncthreads();
  if (!last || threadIdx.x != 0) return;
  const int count = atomicAdd(&counters->next_count[depth], 0);  // every block's append is in
  if (count > 0 && depth + 1 < kMaxDepth)
    refine_level_device<<<count, kRefineThreads, 0, cudaStreamTailLaunch>>>(x, y, depth_out, next, cur, counters, n,
                                                                            depth + 1);
}

class OptimizedDynamicParallelism : public DynamicParallelismBase {
 public:
  void setup(aisp::Context& ctx) override {
    DynamicParallelismBase::setup(ctx);
    const int64_t max_segments = ctx.param("n") / ctx.param("min_len");
    for (int i = 0; i < 2; ++i)
      segs_[i] = static_cast<Segment*>(ctx.scratch("segments" + std::to_string(i), max_segments * sizeof(Segment)));
    counters_ = static_cast<LevelCounters*>(ctx.scratch("level_counters", sizeof(LevelCounters)));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open(s);
    AISP_CUDA_CHECK(cudaMemsetAsync(counters_, 0, sizeof(LevelCounters), s));
    refine_level_device<<<1, kRefineThreads, 0, s>>>(ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                                     ctx.buffer("depth").as<int>(), segs_[1], segs_[0], counters_,
                                                     ctx.param("n"), 0);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "device-side tail launch of each level by its last block"; }

 private:
  Segment* segs_[2] = {nullptr, nullptr};
  LevelCounters* counters_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedDynamicParallelism)
