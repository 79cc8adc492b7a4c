// ch14 autotuned_tiles, optimized: the tile shape chosen by timing every candidate in setup().
//
// Technique: empirical autotuning, as cuBLAS's heuristics + CUTLASS profiler, Triton's @autotune or
// TorchInductor's max-autotune do. setup() runs each of five instantiations of the same kernel template
// (128x128, 128x64, 64x128, 64x64 with 256 threads, 64x32 with 128 threads) once to warm up, then 3 times
// between CUDA events on the pair's buffers, and keeps the fastest. The choice is cached per process
// under (GPU UUID, m, n, k): a second setup() for the same shape and GPU skips the search (each harness
// worker is its own process, so here every worker searches once; the search time is logged, never timed).
// Why it is faster: the winner fills the SMs the fixed tile leaves idle (64 blocks of 128x128 vs 256 of
// 64x64 at 1024 x 1024), at the cost of less reuse per load.
// Expected on Hopper: 64x64 or 128x64 wins at 1024 x 1024 x 8192, ~1.4-1.8x.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): the search (42 ms) timed 128x128 2.079,
// 128x64 2.070, 64x128 2.188, 64x64 2.113, 64x32 1.875 ms and kept 64x32 (512 blocks of 128 threads);
// 1.878 ms, 1.108x [1.088, 1.128]: smaller than expected, because the blocks of this simple kernel are each
// slow enough that 64 of them already keep much of the machine's issue rate busy. A shape with fewer
// fixed-tile blocks (e.g. 512 x 512 x 16384: 16 blocks) should show the effect more strongly; not measured.
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "autotuned_tiles.cuh"

namespace {

const SgemmConfig kCandidates[] = {
    {128, 128, 8, 8, launch_sgemm_tile<128, 128, 8, 8>, "128x128/8x8"},
    {128, 64, 8, 4, launch_sgemm_tile<128, 64, 8, 4>, "128x64/8x4"},
    {64, 128, 4, 8, launch_sgemm_tile<64, 128, 4, 8>, "64x128/4x8"},
    {64, 64, 4, 4, launch_sgemm_tile<64, 64, 4, 4>, "64x64/4x4"},
    {64, 32, 4, 4, launch_sgemm_tile<64, 32, 4, 4>, "64x32/4x4"},
};

// The process-wide tuning cache: (GPU UUID, m, n, k) -> index into kCandidates.
std::map<std::string, int>& tuning_cache() {
  static std::map<std::string, int> cache;
  return cache;
}

class OptimizedAutotunedTiles : public AutotunedTilesBase {
 public:
  void run(aisp::Context& ctx) override { launch(ctx, kCandidates[choice_]); }
  std::string technique() const override { return "tile shape autotuned in setup (5 candidates), cached by GPU and shape"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const std::string key = ctx.device().uuid + ":" + std::to_string(ctx.param("m")) + "x" +
                            std::to_string(ctx.param("n")) + "x" + std::to_string(ctx.param("k"));
    if (auto it = tuning_cache().find(key); it != tuning_cache().end()) {
      choice_ = it->second;
      return;
    }
    choice_ = search(ctx);
    tuning_cache()[key] = choice_;
  }

 private:
  int search(aisp::Context& ctx) const {
    const auto t0 = std::chrono::steady_clock::now();
    cudaEvent_t start, stop;
    AISP_CUDA_CHECK(cudaEventCreate(&start));
    AISP_CUDA_CHECK(cudaEventCreate(&stop));
    int best = 0;
    float best_ms = 0;
    std::string log;
    for (int i = 0; i < static_cast<int>(std::size(kCandidates)); ++i) {
      launch(ctx, kCandidates[i]);  // warm-up (instruction cache, clocks)
      AISP_CUDA_CHECK(cudaEventRecord(start, ctx.stream()));
      for (int rep = 0; rep < 3; ++rep) launch(ctx, kCandidates[i]);
      AISP_CUDA_CHECK(cudaEventRecord(stop, ctx.stream()));
      AISP_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      ms /= 3;
      log += std::string(" ") + kCandidates[i].name + "=" + std::to_string(ms) + "ms";
      if (i == 0 || ms < best_ms) best = i, best_ms = ms;
    }
    AISP_CUDA_CHECK(cudaEventDestroy(start));
    AISP_CUDA_CHECK(cudaEventDestroy(stop));
    const double search_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "[autotune] ch14 autotuned_tiles:%s -> %s (search %.1f ms)\n", log.c_str(), kCandidates[best].name,
                 search_ms);
    std::fflush(stderr);
    return best;
  }

  int choice_ = 0;
};

}  // namespace

AISP_BENCHMARK(OptimizedAutotunedTiles)
