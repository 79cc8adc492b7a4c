// pipeline_parallel baseline: the naive schedule, the whole batch as one micro-batch: each stage waits for
// the previous stage to finish the entire batch. See pipeline_parallel.cuh.
#include "pipeline_parallel.cuh"

struct Baseline : pipeline_parallel::Base {
  int micro_batches() const override { return 1; }
  std::string technique() const override { return "naive pipeline: whole batch per stage"; }
};

AISP_BENCHMARK(Baseline)
