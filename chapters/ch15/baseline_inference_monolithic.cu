// ch15 inference_monolithic, baseline: one stream, requests in arrival order, each run to completion
// (gate, prefill, decode; inference_monolithic.cuh). A request's prefill starts only after the previous
// request's whole decode, so when decode work per request exceeds the arrival gap the queue (and TTFT)
// grows over the trace. Expected on H100: p99 TTFT ~1 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): p99 TTFT 1.735 ms (run 2.795 ms).
#include "inference_monolithic.cuh"

class MonolithicServing : public InferenceMonolithicBase {
 public:
  std::string technique() const override { return "monolithic: one stream, each request's prefill then its decode"; }
  void run(aisp::Context& ctx) override {
    reset_counters(ctx.stream());
    for (int r = 0; r < requests(); ++r) enqueue_request(ctx, r, ctx.stream(), ctx.stream(), nullptr);
  }
};

AISP_BENCHMARK(MonolithicServing)
