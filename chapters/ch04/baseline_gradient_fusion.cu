// gradient_fusion baseline: one ncclAllReduce per gradient tensor (128 calls of 128 KiB), what a framework
// does without bucketing. See gradient_fusion.cuh for the expected effect.
#include "gradient_fusion.cuh"

struct Baseline : gradient_fusion::Base {
  void run(aisp::Context& ctx) override {
    const float* g = ctx.buffer("grads").as<float>();
    float* out = ctx.buffer("reduced").as<float>();
    for (int64_t t = 0; t < gradient_fusion::kTensors; ++t)
      nccl().check(nccl().all_reduce(g + t * gradient_fusion::kElems, out + t * gradient_fusion::kElems,
                                     gradient_fusion::kElems, ncclFloat, ncclSum, comm_, ctx.stream()),
                   "ncclAllReduce");
  }
  std::string technique() const override { return "one all-reduce per gradient tensor"; }
};

AISP_BENCHMARK(Baseline)
