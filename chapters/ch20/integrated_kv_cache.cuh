// integrated_kv_cache: one decode step of attention with its KV-cache update, batch 4 x 32 heads x 4096
// cached tokens x head dim 128, bf16. The step's token brings q, k_new, v_new [4][32][128] (dynamic
// inputs); the cache so far, k_cache, v_cache [4][32][4096][128], is state (static inputs: setup() may
// lay it out as the variant's cache, once). The step appends k_new, v_new and attends over all 4097
// tokens: o = softmax(q K^T / sqrt(128)) V, split-KV (decode_step.cuh, 8 splits: 1024 CTAs).
//   baseline_integrated_kv_cache.cu   the concatenating cache (a framework's `torch.cat(past, new)` per
//                                     step, as early Hugging Face caches did): each step builds a new
//                                     [4097]-token cache from the old one plus the token, then attends
//   optimized_integrated_kv_cache.cu  a preallocated cache with room for the token (setup lays the state
//                                     out with capacity 4097 per row); the attention kernel reads the new
//                                     token straight from k_new/v_new and the warp that scores it also
//                                     writes it into its slot: append and attention in one pass
// Both attend with the same kernel configuration over the same 4097 tokens in the same order: the outputs
// agree bit for bit and the bf16 default tolerance holds.
#pragma once
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_step.cuh"

namespace kv_step {

constexpr int kSplits = 8, kUnroll = 8;

inline int64_t context() { return aisp::axis("context", 4096); }

class IntegratedKvCacheBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t b = 4, h = 32, len = context(), rows = b * h;
    aisp::Workload w;
    w.params = {{"batch", b}, {"heads", h}, {"context", len}, {"head_dim", decode::kD}};
    w.precision = aisp::DType::bf16;
    // Read the cache once, write the new token once; q, k_new, v_new in, o out.
    w.bytes = 2.0 * rows * len * decode::kD * 2 + 2.0 * rows * decode::kD * 2 + 4.0 * rows * decode::kD * 2;
    w.flops = 4.0 * rows * (len + 1) * decode::kD;
    w.items = double(b);
    w.item_unit = "decode steps (sequences)";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("batch"), h = ctx.param("heads"), len = ctx.param("context");
    for (const char* name : {"q", "k_new", "v_new"})
      ctx.input(name, aisp::DType::bf16, {b, h, decode::kD}, aisp::Fill::normal(0, 1));
    for (const char* name : {"k_cache", "v_cache"})
      ctx.input(name, aisp::DType::bf16, {b, h, len, decode::kD}, aisp::Fill::normal(0, 1), aisp::Role::static_);
    ctx.output("o", aisp::DType::bf16, {b, h, decode::kD});
    ws_.carve(ctx.scratch("partials", decode::SplitWorkspace::bytes(b * h, kSplits)), b * h, kSplits);
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  int64_t rows(aisp::Context& ctx) const { return ctx.param("batch") * ctx.param("heads"); }
  // Row pitch of a cache with one free slot per row, and the static state's row pitch, in bytes.
  size_t slot_pitch(aisp::Context& ctx) const { return static_cast<size_t>(ctx.param("context") + 1) * decode::kD * 2; }
  size_t state_pitch(aisp::Context& ctx) const { return static_cast<size_t>(ctx.param("context")) * decode::kD * 2; }
  decode::SplitWorkspace ws_;
};

}  // namespace kv_step
