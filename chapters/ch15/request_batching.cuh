// request_batching: serving a trace of requests, judged on their latency (Goal::latency, p99). 64 requests
// arrive as a Poisson stream (mean gap 20 us) from the harness's seeded trace (aisp/request_trace.hpp);
// each asks for 16-256 "tokens", a token being a fixed slice of dependent FMAs over a 256-float state.
// Both variants compute every request identically (same kernel body, same order of operations): outputs
// match bit for bit. They differ in when a request may start:
//   baseline_request_batching.cu: static batching. Requests are grouped into batches of 16 in arrival order;
//     a batch starts only when its last request has arrived, so early requests wait for late ones.
//   optimized_request_batching.cu: continuous batching. One block per request starts the moment its own
//     request arrives; nothing waits for anything else.
// Each request's block stamps %globaltimer into the trace's completion slot when its last token is done;
// the harness turns stamps into latencies (completion - window open - arrival) and judges their p99.
// Expected on Hopper: the work itself is tiny (a few us per request, all requests fit on the GPU at once),
// so latency is dominated by waiting: static batching adds up to a batch's arrival span (~16 x 20 us) to
// its first requests, continuous batching adds none: p99 several times lower.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int32_t kBatchingRequests = 64;
inline constexpr double kBatchingMeanGapUs = 20;
inline constexpr int kBatchingState = 256;      // floats per request (one per thread)
inline constexpr int kBatchingFmaPerToken = 8;  // dependent FMAs per token per thread
inline constexpr int kStaticBatch = 16;

namespace {

__device__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until the request has arrived: the window opened at *open, the request `arrival_us` later.
__device__ void wait_for_arrival(const unsigned long long* open, int32_t arrival_us) {
  const unsigned long long due = *reinterpret_cast<const volatile unsigned long long*>(open) + 1000ull * arrival_us;
  while (globaltimer_ns() < due) {
  }
}

// One request: its state row advanced output_len tokens, then its completion stamped.
__device__ void serve_request(const aisp::TraceRequest& r, const float* __restrict__ x, float* __restrict__ y,
                              unsigned long long* completion_ns) {
  const int t = threadIdx.x;
  float v = x[r.id * kBatchingState + t];
  for (int k = 0; k < r.output_len * kBatchingFmaPerToken; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  y[r.id * kBatchingState + t] = v;
  __syncthreads();
  if (t == 0) {
    __threadfence();
    completion_ns[r.id] = globaltimer_ns();
  }
}

}  // namespace

class RequestBatchingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"requests", kBatchingRequests}, {"state", kBatchingState}, {"fma_per_token", kBatchingFmaPerToken}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kBatchingRequests * kBatchingState * sizeof(float);
    w.items = static_cast<double>(kBatchingRequests);
    w.item_unit = "requests";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::latency; }

  void setup(aisp::Context& ctx) override {
    aisp::TraceSpec spec;
    spec.requests = kBatchingRequests;
    spec.mean_interarrival_us = kBatchingMeanGapUs;
    spec.output_min = 16;
    spec.output_max = 256;
    trace_ = ctx.request_trace("trace", spec);
    ctx.input("x", aisp::DType::f32, {kBatchingRequests, kBatchingState});
    ctx.output("y", aisp::DType::f32, {kBatchingRequests, kBatchingState});
  }

 protected:
  const aisp::TraceRequest* device_trace() const { return static_cast<const aisp::TraceRequest*>(trace_.device.data); }
  aisp::RequestTrace trace_;
};
