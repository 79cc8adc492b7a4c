// ch16 cudagraph_bucketing, baseline: eager decode (cudagraph_bucketing.cuh): every step's 17 kernels
// launched one by one from the host, each with exactly the step's batch of blocks - what a framework
// without graphs does. ~5.6 us of host time per launch on the lent H100 (ch12), more than each kernel's
// GPU time: host-bound. Expected on H100: ~2.3 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 2.409 ms with the earlier matvec; the current code
// (docs/measurements/closing_calls_20261128.md): H100 2.042 ms, H200 2.010 ms.
#include "cudagraph_bucketing.cuh"

class EagerDecode : public CudagraphBucketingBase {
 public:
  std::string technique() const override { return "eager: 17 launches per decode step, exact batch"; }
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    start(ctx);
    for (int s = 0; s < kCgSteps; ++s) step(ctx, ctx.stream(), cg_batch(s));
  }
};

AISP_BENCHMARK(EagerDecode)
