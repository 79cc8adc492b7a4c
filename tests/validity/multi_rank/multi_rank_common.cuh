// Multi-rank validity fixtures (issue 26): pairs meant to run as N ranks (`aisp bench run --nproc-per-node 2`),
// one worker per GPU, each rank doing its share of a data-parallel copy. They live apart from tests/validity so
// the one-rank validity run (tests/gpu/test_validity_fixtures.cpp) never picks them up: run as one rank, a
// rank-skipping cheat has no rank 1 and is indistinguishable from honest work.
// Status: written, compiled as a --bench-root on a CPU; never run (no multi-GPU machine was lent, and the
// target phases do not collect per-rank results yet: docs/multi-gpu.md).
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
