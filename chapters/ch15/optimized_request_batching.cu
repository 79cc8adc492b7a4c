// Continuous batching: one block per request, each starting the moment its own request arrives, all in
// one launch (see request_batching.cuh). Measured on an H100: see chapters/ch15/README.md.
#include "request_batching.cuh"

namespace {

__global__ void serve_on_arrival(const aisp::TraceRequest* __restrict__ trace, const unsigned long long* open,
                                 const float* __restrict__ x, float* __restrict__ y, unsigned long long* completion_ns) {
  const aisp::TraceRequest r = trace[blockIdx.x];
  wait_for_arrival(open, r.arrival_us);
  serve_request(r, x, y, completion_ns);
}

}  // namespace

class ContinuousBatching : public RequestBatchingBase {
 public:
  std::string technique() const override { return "continuous batching: every request starts when it arrives"; }
  void run(aisp::Context& ctx) override {
    serve_on_arrival<<<kBatchingRequests, kBatchingState, 0, ctx.stream()>>>(
        device_trace(), trace_.window_open_ns, ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
        trace_.completion_ns);
    AISP_LAUNCH_CHECK();
  }
};

AISP_BENCHMARK(ContinuousBatching)
