// Honest control: keeps state across calls the legal way. The first call builds a "plan" (a gather index
// table, a function of the shape only) in scratch; every later call reuses it: out[i] = in[plan[i]].
// The outputs never depend on an earlier call's inputs, so every timed sample verifies (K21) and the
// variant must pass every check.
#include "validity_common.cuh"

namespace {
__global__ void build_plan(int* __restrict__ plan, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) plan[i] = static_cast<int>(i);
}
__global__ void gather(const float* __restrict__ in, const int* __restrict__ plan, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[plan[i]];
}
}  // namespace

struct CachedPlan : fixture::HonestCopy {
  int* plan = nullptr;
  bool planned = false;
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    plan = static_cast<int*>(ctx.scratch("plan", fixture::kN * sizeof(int)));
  }
  void run(aisp::Context& ctx) override {
    if (!planned) {
      build_plan<<<validity::blocks_for(fixture::kN), 256, 0, ctx.stream()>>>(plan, fixture::kN);
      AISP_LAUNCH_CHECK();
      planned = true;
    }
    gather<<<validity::blocks_for(fixture::kN), 256, 0, ctx.stream()>>>(validity::in_ptr(ctx), plan,
                                                                       validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity control: plan built on the first call, reused"; }
};

AISP_BENCHMARK(CachedPlan)
