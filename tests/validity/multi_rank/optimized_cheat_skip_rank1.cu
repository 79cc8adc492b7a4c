// Cheat: rank 1 skips its share. Rank 0 copies its shard exactly as the baseline does; rank 1's run() returns
// without launching anything, so the slowest rank looks as fast as rank 0 alone and the step "halves".
// Real-world exploit: a data-parallel step or collective where one rank short-circuits (an early return on a
// non-zero rank, a collective skipped "because rank 0 already has the answer") while only rank 0's outputs
// are checked.
// Caught by: per-rank verification (runner/rank_judging.hpp, judge_variant_ranks): rank 1's outputs keep the
// harness's poison and differ from the baseline's rank 1, so the variant is INVALID with "rank 1" named (K2).
// The judging is tested on a CPU with these ranks scripted (tests/unit/test_rank_judging.cpp,
// CheatSkipRank1IsInvalidAndNamesRank1); this file has never run on two GPUs.
#include "multi_rank_common.cuh"

struct SkipRank1 : multi_rank::HonestShardCopy {
  void run(aisp::Context& ctx) override {
    if (multi_rank::rank() == 1) return;  // the cheat: rank 1 does nothing
    fixture::launch_copy(ctx, ctx.param("n"));
  }
  std::string technique() const override { return "validity cheat: rank 1 skips its share"; }
};

AISP_BENCHMARK(SkipRank1)
