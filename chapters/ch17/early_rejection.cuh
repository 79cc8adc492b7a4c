// early_rejection: an overloaded server that sheds load, judged on p99 request latency (Goal::latency).
// 128 requests (Poisson, mean gap 1.2 us; prompts 64-512 tokens, 16-128 output tokens) on 8 workers
// (serving.cuh): ~14 us of work per request, so arrivals exceed capacity by ~1.4x and some requests must
// be turned away. Which ones is decided by the same admission rule in both variants, online in the router
// at each arrival: a model of the 8 workers (virtual finish times, kNsPerFma per FMA of declared work)
// predicts the request's wait; above kSloUs it is rejected (its answer: a zero row in y, stamped complete).
// Admitted requests go to the worker with the least outstanding work (live progress, as in dynamic_routing).
//   baseline_early_rejection.cu   late rejection: every request is queued at a worker, which runs its
//                                 prefill and only then, before decoding, drops it if it was rejected -
//                                 the engine finds out when it schedules the request, the usual place for
//                                 a deadline check inside an engine
//   optimized_early_rejection.cu  early rejection: the router answers a rejected request at arrival; it
//                                 never occupies a worker
// The same requests are rejected in both (the decision depends only on the trace), admitted requests are
// served by the same code: y is bit-identical. The latency of a rejected request is the time to its answer.
// Expected on Hopper: late rejection spends ~1/3 of each rejected request's work (its prefill) and makes
// everyone queue behind it; its rejected requests wait in the queues too: p99 several times higher.
#pragma once
#include "serving.cuh"

namespace rejection {

constexpr int kRequests = 128, kWorkers = 8;
constexpr double kMeanGapUs = 1.2;
constexpr serving::Costs kCosts{8, 64};
constexpr float kNsPerFma = 2.0f;  // the admission model's cost of one dependent FMA (4 cycles at ~2 GHz)
constexpr float kSloUs = 15.0f;    // longest predicted queueing delay an admitted request may face

template <bool kEarly>
__global__ void __launch_bounds__(serving::kState)
    serve_with_admission(const aisp::TraceRequest* __restrict__ trace, const unsigned long long* open,
                         const float* __restrict__ x, float* __restrict__ y, unsigned long long* completion_ns,
                         serving::Queues q, int* __restrict__ rejected) {
  if (blockIdx.x == kWorkers) {  // the router
    if (threadIdx.x != 0) return;
    unsigned long long assigned[kWorkers] = {};
    int tails[kWorkers] = {};
    float finish_us[kWorkers] = {};  // the admission model's virtual finish time per worker
    for (int i = 0; i < kRequests; ++i) {
      const aisp::TraceRequest r = trace[i];
      serving::wait_for_arrival(open, r.arrival_us);
      // Admission: predicted wait on the model's least-loaded worker (depends on the trace only).
      int mw = 0;
      for (int w = 1; w < kWorkers; ++w)
        if (finish_us[w] < finish_us[mw]) mw = w;
      const float start = fmaxf(finish_us[mw], static_cast<float>(r.arrival_us));
      const bool reject = start - static_cast<float>(r.arrival_us) > kSloUs;
      if (!reject) finish_us[mw] = start + 1e-3f * kNsPerFma * static_cast<float>(serving::request_work(r, kCosts, true));
      rejected[i] = reject;
      if (kEarly && reject) {  // answered here and now: a zero row, stamped complete
        for (int k = 0; k < serving::kState; ++k) y[i * serving::kState + k] = 0.0f;
        __threadfence();
        completion_ns[i] = serving::globaltimer_ns();
        continue;
      }
      const int w = serving::route<serving::Route::least_work>(i, kWorkers, assigned, q);
      assigned[w] += serving::request_work(r, kCosts, !reject);
      serving::push(q, kRequests, w, i, tails[w]);  // release: rejected[i] is visible to the worker
    }
    serving::AtomicInt(*q.closed).store(1, cuda::memory_order_release);
    return;
  }
  serving::work(
      q, kRequests, trace, kCosts, [rejected](int id) { return !rejected[id]; }, x, y, completion_ns);
}

class EarlyRejectionBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w = serving::request_workload(kRequests, kWorkers, kCosts);
    w.params["slo_us"] = static_cast<int64_t>(kSloUs);
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::latency; }
  void setup(aisp::Context& ctx) override {
    // Prompts 64-512 tokens, outputs 16-128.
    trace_ = request_io::trace_with_state(ctx, kRequests, kMeanGapUs, {64, 512, 16, 128}, serving::kState);
    queue_bytes_ = serving::Queues::bytes(kWorkers, kRequests) + kRequests * sizeof(int);
    queue_base_ = ctx.scratch("queues", queue_bytes_);
    queues_.carve(queue_base_, kWorkers, kRequests);
    rejected_ = reinterpret_cast<int*>(static_cast<char*>(queue_base_) + serving::Queues::bytes(kWorkers, kRequests));
  }

 protected:
  template <bool kEarly>
  void launch(aisp::Context& ctx) {
    AISP_CUDA_CHECK(cudaMemsetAsync(queue_base_, 0, queue_bytes_, ctx.stream()));
    serve_with_admission<kEarly><<<kWorkers + 1, serving::kState, 0, ctx.stream()>>>(
        static_cast<const aisp::TraceRequest*>(trace_.device.data), trace_.window_open_ns, ctx.buffer("x").as<const float>(),
        ctx.buffer("y").as<float>(), trace_.completion_ns, queues_, rejected_);
    AISP_LAUNCH_CHECK();
  }
  aisp::RequestTrace trace_;
  void* queue_base_ = nullptr;
  size_t queue_bytes_ = 0;
  serving::Queues queues_;
  int* rejected_ = nullptr;
};

}  // namespace rejection
