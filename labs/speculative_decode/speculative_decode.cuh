// labs/speculative_decode: how many draft tokens to verify per target pass. Greedy generation of 128 tokens
// from ch15's tiny synthetic target model (chapters/ch15/speculative_decoding.cuh, included: a bigram LM,
// next = argmax_v W[v] . E[prev], vocabulary 16384, width 2048, W and E 64 MiB each in bf16, so a target
// pass streams W from HBM) with a draft of declared acceptance 0.8 per position (the target distilled into
// a next-token table in setup(), 20% of its entries replaced by a fixed hash: ch15's construction).
// One kernel template, ch15's spec::speculate<gamma> (chapters/ch15/speculative_rounds.cuh, included, with the
// draft's distillation), runs every variant: per round the draft proposes gamma tokens
// after the last accepted one (gamma dependent table lookups), one target pass (ch15's target_pass<gamma+1>:
// every row of W dotted with all gamma + 1 queries, W read once) gives the target's next token after each
// prefix, the longest agreeing prefix plus the target's own next token are emitted. gamma = 0 is plain
// greedy decode (one pass, one token). Every logit is computed by the same FMAs in the same order whatever
// gamma is, so every variant emits exactly the baseline's tokens (greedy speculation is lossless).
//   baseline_speculative_decode.cu              gamma 0: plain decode, 128 passes
//   optimized_speculative_decode_gamma1.cu      gamma 1: 1.80 tokens per pass expected
//   optimized_speculative_decode_gamma2.cu      gamma 2: 2.44
//   optimized_speculative_decode.cu             gamma 4: 3.36
//   optimized_speculative_decode_gamma6.cu      gamma 6: 3.95
// Expected tokens per round with acceptance a: (1 - a^(gamma+1)) / (1 - a). The pass cost grows with gamma
// only through FMAs and shared-memory reads of the queries (W is read once either way), so the curve
// flattens: the lab measures where.
#pragma once
#include "../../chapters/ch15/speculative_decoding.cuh"
#include "../../chapters/ch15/speculative_rounds.cuh"

namespace spec_lab {

constexpr int kMaxGamma = 6;

// ch15's base class (the model, its inputs and output), with the lab's own workload key: gamma is what the
// variants differ in, so it is not a workload parameter here; the lab is judged on throughput.
class SpecLabBase : public SpeculativeDecodingBase {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w = SpeculativeDecodingBase::workload();
    w.params.erase("gamma");
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::throughput; }
  // Token ids: exact (the integer default). Speculation is lossless here by construction.

 protected:
  // Launches spec::speculate<kGamma> as one cooperative grid (2 blocks per SM, capped by residency).
  template <int kGamma>
  void launch(aisp::Context& ctx) {
    spec::launch_speculate<kGamma>(ctx, grid_, draft_, partial_);
  }

  template <int kGamma>
  void prepare_gamma(aisp::Context& ctx) {
    static_assert(kGamma >= 0 && kGamma <= kMaxGamma, "the target pass keeps (gamma + 1) x 8 sums in registers");
    grid_ = cooperative_grid(ctx, spec::speculate<kGamma>);
    partial_ =
        static_cast<unsigned long long*>(ctx.scratch("partial", 2 * size_t(grid_) * (kGamma + 1) * sizeof(unsigned long long)));
    draft_ = static_cast<int*>(ctx.scratch("draft", kSpecVocab * sizeof(int)));
    if (kGamma > 0) spec::distill_draft(ctx, draft_);
  }

 private:
  int grid_ = 0;
  unsigned long long* partial_ = nullptr;
  int* draft_ = nullptr;
};

// A variant is its gamma.
template <int kGamma>
class Speculate : public SpecLabBase {
 public:
  void run(aisp::Context& ctx) override { launch<kGamma>(ctx); }

 protected:
  void prepare(aisp::Context& ctx) override { prepare_gamma<kGamma>(ctx); }
};

}  // namespace spec_lab
