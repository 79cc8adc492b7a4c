// Static batching: batches of kStaticBatch requests in arrival order, each started by one kernel that first
// waits for the batch's last arrival (see request_batching.cuh).
#include "request_batching.cuh"

namespace {

__global__ void serve_batch(const aisp::TraceRequest* __restrict__ trace, int first, int count,
                            const unsigned long long* open, const float* __restrict__ x, float* __restrict__ y,
                            unsigned long long* completion_ns) {
  wait_for_arrival(open, trace[first + count - 1].arrival_us);  // the batch is complete only now
  serve_request(trace[first + blockIdx.x], x, y, completion_ns);
}

}  // namespace

class StaticBatching : public RequestBatchingBase {
 public:
  std::string technique() const override { return "static batching: a batch starts when its last request arrives"; }
  void run(aisp::Context& ctx) override {
    for (int first = 0; first < kBatchingRequests; first += kStaticBatch) {
      int count = std::min<int>(kStaticBatch, kBatchingRequests - first);
      serve_batch<<<count, kBatchingState, 0, ctx.stream()>>>(device_trace(), first, count, trace_.window_open_ns,
                                                              ctx.buffer("x").as<const float>(),
                                                              ctx.buffer("y").as<float>(), trace_.completion_ns);
      AISP_LAUNCH_CHECK();
    }
  }
};

AISP_BENCHMARK(StaticBatching)
