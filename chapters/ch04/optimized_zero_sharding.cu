// zero_sharding optimized (ZeRO): reduce-scatter the gradient, update this rank's 1/R shard, all-gather the
// new parameters in place. See zero_sharding.cuh.
#include "zero_sharding.cuh"

struct Optimized : zero_sharding::Base {
  void run(aisp::Context& ctx) override {
    using namespace zero_sharding;
    const int64_t shard = kN / ch04::world(), first = ch04::rank() * shard;
    nccl().check(nccl().reduce_scatter(ctx.buffer("grad").as<float>(), g_sum_, shard, ncclFloat, ncclSum, comm_,
                                       ctx.stream()),
                 "ncclReduceScatter");
    update(ctx, g_sum_, first, shard);
    float* p_new = ctx.buffer("param_new").as<float>();
    nccl().check(nccl().all_gather(p_new + first, p_new, shard, ncclFloat, comm_, ctx.stream()), "ncclAllGather");
  }
  std::string technique() const override { return "ZeRO: reduce-scatter, update 1/R shard, all-gather"; }
};

AISP_BENCHMARK(Optimized)
