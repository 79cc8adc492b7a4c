// ch10 cooperative_persistent, baseline: one kernel launch per Jacobi step (256 launches per run()).
//
// Technique: the textbook loop - for each step, launch a grid of 8192 blocks (one thread per cell) that
// reads the previous grid from one global buffer and writes the next into the other. The launch boundary
// is the grid-wide barrier between steps.
// Why it is slow: each step is tiny (2M cells, 8 MiB in and out, all of it L2-resident on a 50 MiB L2:
// ~2-3 us of work), so the fixed cost of a launch - the host enqueue (~4 us measured on this H100 for
// back-to-back launches) and the grid drain/fill at every boundary - is as large as the work itself, and
// every step moves the whole grid through L2 again.
// Expected on Hopper (H100 SXM): ~4-5 us per step, ~1.0-1.3 ms per run(). Measured (H100 SXM, harness,
// cold, 2026-11-25): 1.829 ms, 7.1 us per step - more than the estimate: the host enqueues 256 launches
// per run() and the GPU waits on them.
#include "cooperative_persistent.cuh"

namespace {

using namespace cooperative_persistent;

constexpr int kThreadsX = 256;

__global__ void __launch_bounds__(kThreadsX) jacobi_step_kernel(const float* __restrict__ in, float* __restrict__ out) {
  const int j = blockIdx.x * kThreadsX + threadIdx.x, i = blockIdx.y;
  const int64_t at = static_cast<int64_t>(i) * kWidth + j;
  const float n = i > 0 ? in[at - kWidth] : 0.0f;
  const float s = i + 1 < kHeight ? in[at + kWidth] : 0.0f;
  const float w = j > 0 ? in[at - 1] : 0.0f;
  const float e = j + 1 < kWidth ? in[at + 1] : 0.0f;
  out[at] = jacobi_point(in[at], n, s, w, e);
}

class BaselineCooperativePersistent : public Pair {
 protected:
  void setup_variant(aisp::Context& ctx) override {
    for (int b = 0; b < 2; ++b)
      ping_[b] = static_cast<float*>(ctx.scratch(b ? "pong" : "ping", kHeight * kWidth * sizeof(float)));
  }

 public:
  void run(aisp::Context& ctx) override {
    const dim3 grid(kWidth / kThreadsX, kHeight);
    const float* src = ctx.buffer("u0").as<const float>();
    float* u = ctx.buffer("u").as<float>();
    for (int step = 0; step < kSteps; ++step) {
      float* dst = step + 1 == kSteps ? u : ping_[step % 2];
      jacobi_step_kernel<<<grid, kThreadsX, 0, ctx.stream()>>>(src, dst);
      AISP_LAUNCH_CHECK();
      src = dst;
    }
  }
  std::string technique() const override { return "one launch per step, grid through L2 every step"; }

 private:
  float* ping_[2] = {nullptr, nullptr};
};

}  // namespace

AISP_BENCHMARK(BaselineCooperativePersistent)
