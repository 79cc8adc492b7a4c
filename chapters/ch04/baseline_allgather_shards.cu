// allgather_shards baseline: the zero-padded all-reduce shortcut: zero the full buffer, copy this rank's
// shard into its row, all-reduce (sum) in place.
#include "allgather_shards.cuh"

struct Baseline : allgather_shards::Base {
  void run(aisp::Context& ctx) override {
    using namespace allgather_shards;
    float* full = ctx.buffer("full").as<float>();
    const int64_t total = kShard * ch04::world();
    AISP_CUDA_CHECK(cudaMemsetAsync(full, 0, total * sizeof(float), ctx.stream()));
    AISP_CUDA_CHECK(cudaMemcpyAsync(full + ch04::rank() * kShard, ctx.buffer("shard").as<float>(),
                                    kShard * sizeof(float), cudaMemcpyDeviceToDevice, ctx.stream()));
    nccl().check(nccl().all_reduce(full, full, total, ncclFloat, ncclSum, comm_, ctx.stream()), "ncclAllReduce");
  }
  std::string technique() const override { return "zero-padded buffer + all-reduce"; }
};

AISP_BENCHMARK(Baseline)
