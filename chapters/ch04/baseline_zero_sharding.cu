// zero_sharding baseline: plain data parallel. Every rank holds the full parameters and the full Adam
// moments (the other ranks' shards received in setup), all-reduces the whole gradient and updates every
// parameter. See zero_sharding.cuh.
#include "zero_sharding.cuh"

struct Baseline : zero_sharding::Base {
  void run(aisp::Context& ctx) override {
    using namespace zero_sharding;
    nccl().check(nccl().all_reduce(ctx.buffer("grad").as<float>(), g_sum_, kN, ncclFloat, ncclSum, comm_, ctx.stream()),
                 "ncclAllReduce");
    for (int s = 0; s < ch04::world(); ++s) update(ctx, g_sum_ + s * shard_elems(), s);
  }
  std::string technique() const override { return "data parallel: full Adam state per rank, all-reduce, update all"; }

 protected:
  int64_t grad_sum_elems() const override { return zero_sharding::kN; }
  void prepare(aisp::Context& ctx) override {
    for (int which = 0; which < 3; ++which) gather_others(ctx, which);  // full p, m and v on every rank
  }
};

AISP_BENCHMARK(Baseline)
