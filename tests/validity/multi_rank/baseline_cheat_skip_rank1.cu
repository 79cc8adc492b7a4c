// Baseline of the rank-skipping cheat: every rank copies its shard (multi_rank::HonestShardCopy).
#include "multi_rank_common.cuh"

AISP_BENCHMARK(multi_rank::HonestShardCopy)
