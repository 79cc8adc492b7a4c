// tensor_parallel optimized: column-parallel linear. Each rank computes only its n/R columns of Y (its own W
// shard, 1/R of the FLOPs) straight into its block of Y, then the blocks are all-gathered in place (rank r's
// block is columns r*n/R.. of the column-major Y, contiguous).
#include "tensor_parallel.cuh"

struct Optimized : tensor_parallel::Base {
  void run(aisp::Context& ctx) override {
    using namespace tensor_parallel;
    const int64_t cols = kN / ch04::world();
    float* y = ctx.buffer("y").as<float>();
    float* mine = y + ch04::rank() * cols * kM;
    gather_x(ctx);
    gemm(ctx, x_full_, ctx.buffer("w").as<__half>(), mine, cols);
    nccl().check(nccl().all_gather(mine, y, cols * kM, ncclFloat, comm_, ctx.stream()), "ncclAllGather(Y)");
  }
  std::string technique() const override { return "column-parallel linear: 1/R of the GEMM per rank + all-gather of Y"; }
};

AISP_BENCHMARK(Optimized)
