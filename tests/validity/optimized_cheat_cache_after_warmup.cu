// Cheat: honest for the first 6 calls of run() (enough for the checked runs), each time keeping a copy
// of the output in a scratch buffer; from the 7th call on it only copies that cached output back, whatever
// the inputs now hold.
// Real-world exploit: "count to N then cache" / memoizing on input identity (same pointer, same shape =>
// same answer), which passes a check done once before timing and makes every timed sample a memcpy.
// Caught by: K3 (timed samples verified against freshly refilled inputs), K10 (capture-replay on fresh
// inputs reproduces the stale cached output).
#include "validity_common.cuh"

struct CacheAfterWarmup : fixture::HonestCopy {
  static constexpr int kHonestCalls = 6;
  float* cache = nullptr;
  int calls = 0;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    cache = static_cast<float*>(ctx.scratch("cache", fixture::kN * sizeof(float)));
  }
  void run(aisp::Context& ctx) override {
    const size_t bytes = fixture::kN * sizeof(float);
    if (++calls <= kHonestCalls) {
      fixture::launch_copy(ctx, fixture::kN);
      AISP_CUDA_CHECK(cudaMemcpyAsync(cache, validity::out_ptr(ctx), bytes, cudaMemcpyDeviceToDevice, ctx.stream()));
    } else {
      AISP_CUDA_CHECK(cudaMemcpyAsync(validity::out_ptr(ctx), cache, bytes, cudaMemcpyDeviceToDevice, ctx.stream()));
    }
  }
  std::string technique() const override { return "validity cheat: replays a cached output after 6 calls"; }
};

AISP_BENCHMARK(CacheAfterWarmup)
