// no_overlap baseline: compute chunk c, all-reduce chunk c, compute chunk c+1 ... on one stream: every
// all-reduce waits for its compute and every compute waits for the previous all-reduce.
#include "no_overlap.cuh"

struct Baseline : no_overlap::Base {
  void run(aisp::Context& ctx) override {
    for (int64_t c = 0; c < no_overlap::kChunks; ++c) {
      compute(ctx, c, ctx.stream());
      reduce(ctx, c, ctx.stream());
    }
  }
  std::string technique() const override { return "compute and all-reduce serialized on one stream"; }
};

AISP_BENCHMARK(Baseline)
