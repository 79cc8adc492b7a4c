// dynamic_routing: routing a request trace over 8 identical workers (replicas), judged on p99 request
// latency (Goal::latency). 128 requests arrive as a Poisson stream (mean gap 6 us) from the harness's
// seeded trace, each with 16-512 output tokens (prompts 16-64 tokens). A worker serves its queue in order
// (serving.cuh: persistent kernel, one router thread, 8 worker CTAs): at ~0.13 us per output token a
// request costs 2-66 us, so the 8 workers run at ~70-85% utilization and queues form.
//   baseline_dynamic_routing.cu   round robin: request i goes to worker i % 8, blind to lengths and load
//   optimized_dynamic_routing.cu  least outstanding work: each request goes to the worker whose backlog
//                                 (work routed to it minus the progress it reports, read at arrival) is
//                                 smallest; the backlog counts every request's known length
// Both serve each request with the same code: outputs are bit-identical; only the queues differ.
// Expected on Hopper: round robin stacks several long requests on one worker now and then (its p99 is a
// request that waited behind them); least-work routing keeps the backlogs even: p99 ~1.5-2x lower.
#pragma once
#include "serving.cuh"

namespace routing {

constexpr int kRequests = 128, kWorkers = 8;
constexpr double kMeanGapUs = 6;
constexpr serving::Costs kCosts{4, 64};

template <serving::Route R>
__global__ void __launch_bounds__(serving::kState)
    serve_routed(const aisp::TraceRequest* __restrict__ trace, const unsigned long long* open, const float* __restrict__ x,
                 float* __restrict__ y, unsigned long long* completion_ns, serving::Queues q) {
  if (blockIdx.x == kWorkers) {  // the router
    if (threadIdx.x != 0) return;
    unsigned long long assigned[kWorkers] = {};
    int tails[kWorkers] = {};
    for (int i = 0; i < kRequests; ++i) {
      const aisp::TraceRequest r = trace[i];
      serving::wait_for_arrival(open, r.arrival_us);
      const int w = serving::route<R>(i, kWorkers, assigned, q);
      assigned[w] += serving::request_work(r, kCosts, true);
      serving::push(q, kRequests, w, i, tails[w]);
    }
    serving::AtomicInt(*q.closed).store(1, cuda::memory_order_release);
    return;
  }
  serving::work(
      q, kRequests, trace, kCosts, [](int) { return true; }, x, y, completion_ns);
}

class DynamicRoutingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return serving::request_workload(kRequests, kWorkers, kCosts); }
  aisp::Goal goal() const override { return aisp::Goal::latency; }
  void setup(aisp::Context& ctx) override {
    // Prompts 16-64 tokens, outputs 16-512: the output length is what makes a worker's backlog.
    trace_ = request_io::trace_with_state(ctx, kRequests, kMeanGapUs, {16, 64, 16, 512}, serving::kState);
    queue_bytes_ = serving::Queues::bytes(kWorkers, kRequests);
    queue_base_ = ctx.scratch("queues", queue_bytes_);
    queues_.carve(queue_base_, kWorkers, kRequests);
  }

 protected:
  template <serving::Route R>
  void launch(aisp::Context& ctx) {
    AISP_CUDA_CHECK(cudaMemsetAsync(queue_base_, 0, queue_bytes_, ctx.stream()));
    serve_routed<R><<<kWorkers + 1, serving::kState, 0, ctx.stream()>>>(
        static_cast<const aisp::TraceRequest*>(trace_.device.data), trace_.window_open_ns, ctx.buffer("x").as<const float>(),
        ctx.buffer("y").as<float>(), trace_.completion_ns, queues_);
    AISP_LAUNCH_CHECK();
  }
  aisp::RequestTrace trace_;
  void* queue_base_ = nullptr;
  size_t queue_bytes_ = 0;
  serving::Queues queues_;
};

}  // namespace routing
