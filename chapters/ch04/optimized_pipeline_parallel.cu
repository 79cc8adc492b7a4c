// pipeline_parallel optimized: 8 micro-batches (GPipe): a stage sends micro-batch i while it computes i+1, so
// the stages work at the same time after the first micro-batch. See pipeline_parallel.cuh.
#include "pipeline_parallel.cuh"

struct Optimized : pipeline_parallel::Base {
  int micro_batches() const override { return 8; }
  std::string technique() const override { return "8 micro-batches: stages overlap (GPipe)"; }
};

AISP_BENCHMARK(Optimized)
