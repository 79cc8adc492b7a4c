// ch20 integrated_kv_cache, baseline: a concatenating KV cache (new cache = cat(old cache, new token)).
//
// Technique: each step copies the whole K and V cache (2D copies, row by row into a buffer with one more
// slot per row) and the step's k_new, v_new into the last slot, then runs the split-KV attention over the
// new buffer. This is what `past = torch.cat([past, new], dim=-2)` does every step.
// Why it is slow: the attention must read the cache once (268 MiB at 4096 tokens); the concatenation reads
// and writes it once more before that: ~3x the bytes of the step itself, growing with the context.
// Expected on Hopper: ~3x the optimized step (~0.28 ms vs ~0.1 ms).
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 442.6 us.
#include "integrated_kv_cache.cuh"

namespace {

using namespace kv_step;

class BaselineIntegratedKvCache : public IntegratedKvCacheBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context"), r = rows(ctx);
    const size_t pitch = slot_pitch(ctx), state = state_pitch(ctx), token = decode::kD * 2;
    cudaStream_t st = ctx.stream();
    __nv_bfloat16* dst[2] = {k_, v_};
    const char* old_names[2] = {"k_cache", "v_cache"};
    const char* new_names[2] = {"k_new", "v_new"};
    for (int i = 0; i < 2; ++i) {
      AISP_CUDA_CHECK(cudaMemcpy2DAsync(dst[i], pitch, ctx.buffer(old_names[i]).data, state, state, r,
                                        cudaMemcpyDeviceToDevice, st));
      AISP_CUDA_CHECK(cudaMemcpy2DAsync(dst[i] + len * decode::kD, pitch, ctx.buffer(new_names[i]).data, token, token, r,
                                        cudaMemcpyDeviceToDevice, st));
    }
    decode_step::launch<kUnroll>(st, ctx.buffer("q").as<const __nv_bfloat16>(), decode_step::LoadCache{k_, v_, len + 1},
                                 r, len + 1, kSplits, ws_, ctx.buffer("o").as<__nv_bfloat16>());
  }
  std::string technique() const override { return "concatenating cache: copy old cache + token each step, then attend"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    k_ = static_cast<__nv_bfloat16*>(ctx.scratch("k_cat", slot_pitch(ctx) * rows(ctx)));
    v_ = static_cast<__nv_bfloat16*>(ctx.scratch("v_cat", slot_pitch(ctx) * rows(ctx)));
  }

 private:
  __nv_bfloat16* k_ = nullptr;
  __nv_bfloat16* v_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineIntegratedKvCache)
