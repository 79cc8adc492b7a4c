// Cheat: rank 1 skips its share. Rank 0 copies its shard exactly as the baseline does; rank 1's run() returns
// without launching anything, so the slowest rank looks as fast as rank 0 alone and the step "halves".
// Real-world exploit: a data-parallel step or collective where one rank short-circuits (an early return on a
// non-zero rank, a collective skipped "because rank 0 already has the answer") while only rank 0's outputs
// are checked.
// Caught by: per-rank verification (runner/ranked_worker.hpp: every rank's outputs compared with the baseline's
// same rank): rank 1's outputs keep the harness's poison (K1) and differ from the baseline's rank 1 (K2, the
// rank named), so the variant is INVALID. On 2 H200s (2026-11-28): INVALID, K1 "2097152 elements still hold
// the poison pattern" (rank 1's whole shard), K2, K3. CPU: tests/unit/test_ranked_target_run.cpp.
#include "multi_rank_common.cuh"

struct SkipRank1 : multi_rank::HonestShardCopy {
  void run(aisp::Context& ctx) override {
    if (multi_rank::rank() == 1) return;  // the cheat: rank 1 does nothing
    fixture::launch_copy(ctx, ctx.param("n"));
  }
  std::string technique() const override { return "validity cheat: rank 1 skips its share"; }
};

AISP_BENCHMARK(SkipRank1)
