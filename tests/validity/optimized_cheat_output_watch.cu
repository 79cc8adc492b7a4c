// Cheat, written against a harness that poisons outputs only before the runs it checks: a kernel looks
// at the output's last element first; if the harness touched it (it holds the poison NaN), this call is
// checked and the copy is complete; otherwise only the first eighth is copied (8x less traffic). The
// decision is made on the device, so the host sees the same launches either way.
// Real-world exploit: the outside review's GEMM that watched its output buffer (15/15 checks passed,
// 7.2x less work on timed samples).
// Expected now: neutralized. Every timed sample gets poisoned outputs exactly like a checked run, so this
// variant always takes the full path: valid, no check failed, and no faster than its honest baseline.
// If a sample ever took the short path, K21 (every timed sample verified) would flag it.
#include "validity_common.cuh"

namespace {
__device__ int take_full_path;

__global__ void look_at_output(const float* __restrict__ out, int64_t n) { take_full_path = isnan(out[n - 1]); }

__global__ void copy_if_watched(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t limit = take_full_path ? n : n / 8;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < limit) out[i] = in[i];
}
}  // namespace

struct OutputWatch : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    look_at_output<<<1, 1, 0, ctx.stream()>>>(validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
    copy_if_watched<<<validity::blocks_for(fixture::kN), 256, 0, ctx.stream()>>>(validity::in_ptr(ctx),
                                                                                 validity::out_ptr(ctx), fixture::kN);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: full work only when the output was poisoned"; }
};

AISP_BENCHMARK(OutputWatch)
