// ch17 prefill_decode_disagg, baseline: two colocated engines (prefill_decode_disagg.cuh).
//
// Technique: engine e (one CTA) serves requests e, e+2, ... (round robin between two identical replicas,
// each with its own part of one KV pool). Each iteration: if its next request has arrived, run that
// prefill (writing the KV rows) and add it to the batch; then one decode step for the batch. With nothing
// to do it waits for its next arrival. This is an iteration-level (continuous batching) engine, one
// prefill per iteration.
// Why it is slow: a prefill (8-32 us) sits inside an iteration, so every running request of that engine
// waits for it before its next token; at this load ~1/3 of an engine's time goes to prefills, stretching
// every decode by about as much.
// Expected on Hopper: p99 end-to-end ~1.35 ms (decode steps now ~9 us at any batch).
// Measured (H100 SXM, harness cold mode, 2026-11-28, see prefill_decode_disagg.cuh): first regime p99 935 us;
// second (step cost still growing with the batch) p99 1.500 ms; with the batch-flat step (2026-11-28,
// docs/measurements/closing_calls_20261128.md) p99 1.362 ms on the H100, 1.476 ms on the H200.
#include "prefill_decode_disagg.cuh"

namespace {

using namespace pd;

__global__ void __launch_bounds__(kThreads)
    colocated_engines(const aisp::TraceRequest* __restrict__ trace, const unsigned long long* open, const float* __restrict__ x,
                      float* __restrict__ y, unsigned long long* completion_ns, float* __restrict__ pool, float* sink) {
  __shared__ Batch b;
  __shared__ int go;
  const int e = blockIdx.x;
  if (threadIdx.x == 0) b.n = 0;
  int next = e, done = 0;
  const int mine = (kRequests - e + 1) / 2;
  __syncthreads();
  while (done < mine) {
    if (threadIdx.x == 0) go = next < kRequests && globaltimer_ns() >= due_ns(open, trace[next].arrival_us);
    __syncthreads();
    if (go) {
      prefill_rows(next, trace[next].prompt_len, x, pool);
      __syncthreads();
      if (threadIdx.x == 0) admit(b, next);
      next += 2;
      __syncthreads();
    }
    if (b.n > 0) {
      const int before = b.n;
      decode_step(b, trace, pool, y, completion_ns, sink);
      done += before - b.n;
    } else if (next < kRequests && threadIdx.x == 0) {
      while (globaltimer_ns() < due_ns(open, trace[next].arrival_us)) {}
    }
    __syncthreads();
  }
}

class ColocatedEngines : public PrefillDecodeDisaggBase {
 public:
  std::string technique() const override { return "colocated: 2 engines, each interleaving prefills with its decode steps"; }
  void run(aisp::Context& ctx) override {
    colocated_engines<<<2, kThreads, 0, ctx.stream()>>>(device_trace(), trace_.window_open_ns,
                                                        ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                                        trace_.completion_ns, pool_a_, sink_);
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace

AISP_BENCHMARK(ColocatedEngines)
