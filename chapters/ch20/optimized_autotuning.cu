// ch20 autotuning, optimized: the configuration is searched in setup() for this shape on this GPU.
//
// Technique: setup() runs every (splits, U) of {8, 16, 32, 64, 128, 256} x {4, 8} on the real buffers
// (into a scratch output), one warm-up then the median of 5 event-timed runs each, and keeps the fastest.
// The choice is cached in a process-wide table keyed by (rows, context, GPU UUID): a second setup() for
// the same shape on the same GPU (the harness re-runs setup to check static inputs) reuses it. run() is
// the baseline's kernel with the chosen configuration; nothing about input values enters the choice.
// Why it is faster: enough CTAs to fill all 132 SMs several times over, each with a short token range,
// so every SM keeps enough bytes in flight; the search also weighs the merge kernel's cost, which grows
// with the split count.
// Expected on Hopper: ~64-128 splits, 3-4x over the fixed configuration.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 19 checks passed): the search
// picked 64 splits, U = 4; 58.3 us (2.30 TB/s), 2.25x [2.21, 2.29] over the fixed configuration.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "autotuning.cuh"

namespace {

struct Choice {
  int splits = 8, unroll = 8;
  float ms = 0;
};

class OptimizedAutotuning : public autotune::AutotuningBase {
 public:
  void run(aisp::Context& ctx) override { attend(ctx, best_.splits, best_.unroll, ctx.buffer("o").as<__nv_bfloat16>()); }
  std::string technique() const override {
    return "configuration autotuned in setup: " + std::to_string(best_.splits) + " splits, U = " +
           std::to_string(best_.unroll);
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    static std::map<std::string, Choice> cache;  // (shape, GPU) -> choice, for the life of the process
    const std::string key = std::to_string(ctx.param("rows")) + "x" + std::to_string(ctx.param("context")) + "@" +
                            ctx.device().uuid;
    if (auto it = cache.find(key); it != cache.end()) {
      best_ = it->second;
      return;
    }
    auto* o = static_cast<__nv_bfloat16*>(ctx.scratch("tune_o", static_cast<size_t>(ctx.param("rows")) * decode::kD * 2));
    cudaEvent_t start, stop;
    AISP_CUDA_CHECK(cudaEventCreate(&start));
    AISP_CUDA_CHECK(cudaEventCreate(&stop));
    best_.ms = 1e30f;
    for (int splits : {8, 16, 32, 64, 128, 256}) {
      for (int unroll : {4, 8}) {
        attend(ctx, splits, unroll, o);  // warm-up
        std::vector<float> times;
        for (int rep = 0; rep < 5; ++rep) {
          AISP_CUDA_CHECK(cudaEventRecord(start, ctx.stream()));
          attend(ctx, splits, unroll, o);
          AISP_CUDA_CHECK(cudaEventRecord(stop, ctx.stream()));
          AISP_CUDA_CHECK(cudaEventSynchronize(stop));
          float ms = 0;
          AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
          times.push_back(ms);
        }
        std::nth_element(times.begin(), times.begin() + 2, times.end());
        if (times[2] < best_.ms) best_ = {splits, unroll, times[2]};
      }
    }
    AISP_CUDA_CHECK(cudaEventDestroy(start));
    AISP_CUDA_CHECK(cudaEventDestroy(stop));
    std::fprintf(stderr, "ch20 autotuning: %s -> %d splits, U = %d (%.1f us)\n", key.c_str(), best_.splits,
                 best_.unroll, best_.ms * 1e3f);
    cache[key] = best_;
  }

 private:
  Choice best_;
};

}  // namespace

AISP_BENCHMARK(OptimizedAutotuning)
