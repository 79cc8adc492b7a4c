// Multi-rank validity fixtures (issue 26): pairs meant to run as N ranks (`aisp bench run --nproc-per-node 2`),
// one worker per GPU, each rank doing its share of a data-parallel copy. They live apart from tests/validity so
// the one-rank validity run (tests/gpu/test_validity_fixtures.cpp) never picks them up: run as one rank, a
// rank-skipping cheat has no rank 1 and is indistinguishable from honest work.
// Built as the test-only chapter `multi_rank` (tests/CMakeLists.txt). Run on 2 H200s on 2026-11-28
// (docs/measurements/multi_gpu_h100x2_20261128.md): cheat_skip_rank1 INVALID (K1, K2, K3), honest_all_ranks
// 19/19 checks passed.
#pragma once
#include <cstdlib>

#include "../validity_common.cuh"

namespace multi_rank {

// This worker's rank, from the RANK the launch plan (runner/rank_plan.hpp) sets in every rank's environment;
// 0 when run as a single process.
inline int rank() {
  const char* r = std::getenv("RANK");
  return r && *r ? std::atoi(r) : 0;
}

// The honest per-rank work: each rank copies its own 1 Mi floats (its shard of a 2 Mi-float copy over two
// ranks); the supervisor compares rank r's output with the baseline's rank r.
struct HonestShardCopy : fixture::HonestCopy {
  std::string technique() const override { return "multi-rank fixture: every rank copies its shard"; }
};

}  // namespace multi_rank
