// tensor_parallel baseline (replicated): W is gathered once in setup (from the static shards, a model
// replica on every rank); each step all-gathers X and computes the whole m x n x k GEMM on every rank.
#include "tensor_parallel.cuh"

struct Baseline : tensor_parallel::Base {
  void setup(aisp::Context& ctx) override {
    Base::setup(ctx);
    using namespace tensor_parallel;
    w_full_ = static_cast<__half*>(ctx.scratch("w_full", kK * kN * sizeof(__half)));
    nccl().check(nccl().all_gather(ctx.buffer("w").as<__half>(), w_full_, kN / ch04::world() * kK, ncclHalf, comm_,
                                   ctx.stream()),
                 "ncclAllGather(W)");
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
  void run(aisp::Context& ctx) override {
    gather_x(ctx);
    gemm(ctx, x_full_, w_full_, ctx.buffer("y").as<float>(), tensor_parallel::kN);
  }
  std::string technique() const override { return "replicated layer: every rank computes all of Y"; }

 private:
  __half* w_full_ = nullptr;
};

AISP_BENCHMARK(Baseline)
