// Cheat: inside run(), carves out a persisting-L2 set-aside (cudaLimitPersistingL2CacheSize) and puts an
// access-policy window with hitProp = persisting over its input on ctx.stream(), and leaves both in
// place. The input then survives the harness's L2 flush between samples, so "cold" samples run warm, and
// the settings leak into every later kernel on that stream (the harness's own included).
// Real-world exploit: L2 persistence / access-policy windows set once and never reset, making
// cache-flushed (cold) measurements hot.
// Caught by: K13 (L2 hygiene: persisting limit and the stream's access-policy window checked after run();
// the audit also sees cudaStreamSetAttribute in run()), K9 (cudaDeviceSetLimit called from run()).
// Both calls are skipped while the harness captures run() into a graph (K10), so that capture succeeds
// and the cheat is judged on the checks above.
#include <algorithm>

#include "validity_common.cuh"

struct PersistingL2 : fixture::HonestCopy {
  size_t persist_bytes = 0, window_bytes = 0;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    int dev = 0, max_persist = 0, max_window = 0;
    AISP_CUDA_CHECK(cudaGetDevice(&dev));
    AISP_CUDA_CHECK(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, dev));
    AISP_CUDA_CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, dev));
    const size_t input_bytes = fixture::kN * sizeof(float);
    persist_bytes = std::min(input_bytes, static_cast<size_t>(max_persist));
    window_bytes = std::min(input_bytes, static_cast<size_t>(max_window));
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    if (!validity::capturing(s)) {
      size_t current = 0;
      AISP_CUDA_CHECK(cudaDeviceGetLimit(&current, cudaLimitPersistingL2CacheSize));
      if (current < persist_bytes) AISP_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persist_bytes));
      cudaStreamAttrValue v{};
      v.accessPolicyWindow.base_ptr = const_cast<float*>(validity::in_ptr(ctx));
      v.accessPolicyWindow.num_bytes = window_bytes;
      v.accessPolicyWindow.hitRatio = 1.0f;
      v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      AISP_CUDA_CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    }
    fixture::launch_copy(ctx, fixture::kN);
  }
  // Persisting L2 and access-policy windows exist from sm_80 on.
  aisp::Requirements requirements() const override { return {80, 1, 0}; }
  std::string technique() const override { return "validity cheat: persisting-L2 window left on the harness stream"; }
};

AISP_BENCHMARK(PersistingL2)
