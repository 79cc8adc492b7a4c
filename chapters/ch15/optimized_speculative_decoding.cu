// ch15 speculative_decoding, optimized: draft gamma = 4 tokens, verify them in one target pass. The kernel,
// spec::speculate<4>, and the draft's distillation are in speculative_rounds.cuh (labs/speculative_decode runs the
// same kernel at gamma 0..6); the target pass and the base class in speculative_decoding.cuh.
//
// Technique: each round, the draft (a table lookup per token: the simulated small model with a declared
// acceptance of 0.8) proposes d1..d4 after the last accepted token d0. One target pass dots every row of W
// with the 5 query vectors E[d0..d4] at once, giving the target's next token t_j after each prefix
// d0..dj. The longest prefix with d_{j+1} == t_j is accepted and t_n (the target's correction, or its
// bonus token when all 4 agree) is appended: 1 to 5 tokens per pass, each exactly the token plain greedy
// decode would produce (t_j is computed by the same instructions as in the baseline).
// Why it is faster: a decode pass is bound by streaming W (64 MiB) from HBM, not by arithmetic; verifying 5
// positions reads W once, like verifying 1 (5x the FMAs, still under the memory time). With acceptance
// 0.8, a pass yields 3.36 tokens on average instead of 1.
// Expected on H100: ~38 passes of ~27 us ~1.0 ms, ~3x over plain decode. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 2.600 ms, 1.50x [1.46, 1.55] before the target pass read each query slice once
// per 8 rows (it was shared-memory bound). The current code (2026-11-28, all checks passed,
// docs/measurements/closing_calls_20261128.md): H100 80GB HBM3 1.229 ms, 2.643x [2.570, 2.723], FASTER;
// H200 1.105 ms, 2.161x [2.074, 2.242], FASTER.
#include "speculative_decoding.cuh"
#include "speculative_rounds.cuh"

namespace {

constexpr int kQ = kSpecGamma + 1;  // queries per verification pass

class SpeculativeDecode : public SpeculativeDecodingBase {
 public:
  std::string technique() const override {
    return "speculative decoding: 4 draft tokens (acceptance 0.8) verified per target pass";
  }
  void run(aisp::Context& ctx) override { spec::launch_speculate<kSpecGamma>(ctx, grid_, draft_, partial_); }

 protected:
  void prepare(aisp::Context& ctx) override {
    grid_ = cooperative_grid(ctx, spec::speculate<kSpecGamma>);
    partial_ = static_cast<unsigned long long*>(ctx.scratch("partial", 2 * size_t(grid_) * kQ * sizeof(unsigned long long)));
    draft_ = static_cast<int*>(ctx.scratch("draft", kSpecVocab * sizeof(int)));
    spec::distill_draft(ctx, draft_);
  }

 private:
  int grid_ = 0;
  unsigned long long* partial_ = nullptr;
  int* draft_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(SpeculativeDecode)
