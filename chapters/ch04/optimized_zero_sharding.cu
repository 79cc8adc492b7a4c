// zero_sharding optimized (ZeRO-1/2): every rank holds the full parameters but only its 1/R shard of the
// Adam moments (never the others: they are not allocated) and of the summed gradient; reduce-scatter the
// gradient, update its shard, all-gather the new parameters in place. See zero_sharding.cuh.
#include "zero_sharding.cuh"

struct Optimized : zero_sharding::Base {
  void run(aisp::Context& ctx) override {
    using namespace zero_sharding;
    const int64_t shard = shard_elems(), first = ch04::rank() * shard;
    nccl().check(nccl().reduce_scatter(ctx.buffer("grad").as<float>(), g_sum_, shard, ncclFloat, ncclSum, comm_, ctx.stream()),
                 "ncclReduceScatter");
    update(ctx, g_sum_, ch04::rank());
    float* p_new = ctx.buffer("param_new").as<float>();
    nccl().check(nccl().all_gather(p_new + first, p_new, shard, ncclFloat, comm_, ctx.stream()), "ncclAllGather");
  }
  std::string technique() const override {
    return "ZeRO-1/2: moments and gradient sum sharded 1/R, reduce-scatter, all-gather";
  }

 protected:
  int64_t grad_sum_elems() const override { return zero_sharding::shard_elems(); }
  void prepare(aisp::Context& ctx) override { gather_others(ctx, 0); }  // full parameters only
};

AISP_BENCHMARK(Optimized)
