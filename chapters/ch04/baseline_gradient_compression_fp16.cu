// gradient_compression_fp16 baseline: the gradients all-reduced in fp32 (4 bytes per element on the link).
#include "gradient_compression_fp16.cuh"

struct Baseline : gradient_compression_fp16::Base {
  void run(aisp::Context& ctx) override {
    nccl().check(nccl().all_reduce(ctx.buffer("grad").as<float>(), ctx.buffer("reduced").as<float>(),
                                   gradient_compression_fp16::kN, ncclFloat, ncclSum, comm_, ctx.stream()),
                 "ncclAllReduce");
  }
  std::string technique() const override { return "fp32 all-reduce"; }
};

AISP_BENCHMARK(Baseline)
