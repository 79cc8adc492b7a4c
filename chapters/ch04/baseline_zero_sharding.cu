// zero_sharding baseline: plain data parallel: all-reduce the whole gradient, every rank updates every
// parameter. See zero_sharding.cuh.
#include "zero_sharding.cuh"

struct Baseline : zero_sharding::Base {
  void run(aisp::Context& ctx) override {
    using namespace zero_sharding;
    nccl().check(nccl().all_reduce(ctx.buffer("grad").as<float>(), g_sum_, kN, ncclFloat, ncclSum, comm_, ctx.stream()),
                 "ncclAllReduce");
    update(ctx, g_sum_, 0, kN);
  }
  std::string technique() const override { return "all-reduce, every rank updates all parameters"; }
};

AISP_BENCHMARK(Baseline)
