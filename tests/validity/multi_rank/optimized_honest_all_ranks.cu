// Honest control of the multi-rank fixtures: every rank copies its shard, as the baseline does; it must pass
// per-rank verification (and come out SAME). Never run on two GPUs yet (docs/multi-gpu.md).
#include "multi_rank_common.cuh"

struct AllRanks : multi_rank::HonestShardCopy {
  std::string technique() const override { return "multi-rank control: every rank copies its shard"; }
};

AISP_BENCHMARK(AllRanks)
