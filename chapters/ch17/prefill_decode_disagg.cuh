// prefill_decode_disagg: two serving engines on one GPU, colocated or disaggregated, judged on the p99
// end-to-end request latency (Goal::latency). 48 requests (Poisson, mean gap 30 us; prompts 256-1024
// tokens, 32-96 output tokens) from the harness's seeded trace. An engine is one CTA of 512 threads
// running iterations in a persistent kernel (grid of 2 engines, both resident):
//   prefill(r):    r's KV rows (one row of 4 floats per 16 prompt tokens; each element a chain of
//                  prompt_len x kPrefillFma dependent FMAs) are written into the engine's KV pool: ~8-33 us
//                  per request, ~20 us on average
//   decode step:   one step for every running request: a shared cost that does not grow with the batch
//                  (kStepFma dependent FMAs on all threads, ~8 us, standing in for reading the weights once
//                  per step) plus, per request, one warp reading its <= 64 KV rows from the pool (an
//                  attention stand-in: per-dimension sums, ~1 us, 16 requests in parallel) and updating
//                  its 4-float state; the last token writes y[r] and stamps r's completion
// y[r] depends only on x[r], the KV rows and r's lengths: bit-identical in both variants.
//   baseline_prefill_decode_disagg.cu   colocated: 2 identical engines, requests alternate between them;
//                                       each iteration runs one arrived prefill (if any) and then a decode
//                                       step, so every prefill stalls that engine's running decodes
//   optimized_prefill_decode_disagg.cu  disaggregated (DistServe/Splitwise): engine 0 only prefills (in
//                                       arrival order), writes into its own KV pool and transfers the rows to
//                                       the decode engine's pool (a copy between the two pools, then a release
//                                       flag); engine 1 only decodes, batching every request handed over
// Same resources (2 SMs' worth of engines), same work. Expected on Hopper: a colocated engine spends ~1/3
// of its time in prefills (20 us per 60 us of arrivals), stretching every decode by ~1.5x; disaggregated
// decode steps run back to back on a batch twice as large (its shared cost is paid once), while the
// prefill engine at ~65% load adds some queueing before the first token: p99 end-to-end ~1.3x lower.
// The regime matters, and the first version of this pair showed it: with a step cost of ~4 us and a
// per-request read of up to 256 rows (~3 us, latency-bound), a step's cost grew with the batch, the
// decode engine's doubled batch cost more than the prefills it no longer waited for, and disaggregation
// measured 0.86x (H100, 2026-11-28). With prefill-heavy traffic the single prefill engine would become
// the bottleneck instead.
#pragma once
#include <cuda/atomic>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace pd {

constexpr int kRequests = 48, kPromptMin = 256, kPromptMax = 1024, kOutMin = 32, kOutMax = 96;
constexpr double kMeanGapUs = 30;
constexpr int kDims = 4;           // floats per KV row and per request state
constexpr int kTokensPerRow = 16;  // one KV row stands for 16 prompt tokens (keeps the per-request read small)
constexpr int kRowsMax = kPromptMax / kTokensPerRow;
constexpr int kThreads = 512;
constexpr int kPrefillFma = 16;  // per prompt token, on each KV element's chain (a prefill scales with its prompt)
constexpr int kStepFma = 4096;   // per decode step, all threads: the step's shared cost

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned long long due_ns(const unsigned long long* open, int32_t arrival_us) {
  return *reinterpret_cast<const volatile unsigned long long*>(open) + 1000ull * arrival_us;
}
__device__ __forceinline__ float fma_chain(float v, int n) {
  for (int k = 0; k < n; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  return v;
}

__device__ __forceinline__ int kv_rows(int prompt) { return prompt / kTokensPerRow; }

// Writes r's prompt KV rows into `pool` ([request][kRowsMax][kDims]).
__device__ void prefill_rows(int r, int prompt, const float* __restrict__ x, float* __restrict__ pool) {
  for (int i = threadIdx.x; i < kv_rows(prompt) * kDims; i += blockDim.x) {
    const int row = i / kDims, k = i % kDims;
    pool[(int64_t(r) * kRowsMax + row) * kDims + k] =
        fma_chain(x[r * kDims + k] + 0.000244140625f * static_cast<float>(row), prompt * kPrefillFma);
  }
}

// The running requests of an engine (shared memory).
struct Batch {
  int id[kRequests];
  int tokens[kRequests];
  float state[kRequests][kDims];
  int n;
};

// One decode step over the batch: the shared cost, then warp w serves batch slots w, w+8, ...: lane reads
// rows lane/4, lane/4 + 8, ... of dim lane%4, a fixed xor tree sums them per dim, lanes 0-3 update the
// state. Finished requests write y, stamp completion and leave the batch (order kept). `sink` keeps the
// shared cost from being optimized away.
__device__ void decode_step(Batch& b, const aisp::TraceRequest* __restrict__ trace, const float* __restrict__ pool,
                            float* __restrict__ y, unsigned long long* completion_ns, float* sink) {
  sink[blockIdx.x * kThreads + threadIdx.x] = fma_chain(sink[blockIdx.x * kThreads + threadIdx.x], kStepFma);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int s = warp; s < b.n; s += kThreads / 32) {
    const int r = b.id[s], rows = kv_rows(trace[r].prompt_len);
    float a = 0.0f;
#pragma unroll 8  // <= 64 rows: every lane's <= 8 loads in flight at once
    for (int row = lane / kDims; row < rows; row += 32 / kDims) a += pool[(int64_t(r) * kRowsMax + row) * kDims + lane % kDims];
#pragma unroll
    for (int o = 4; o < 32; o *= 2) a += __shfl_xor_sync(0xffffffffu, a, o);
    if (lane < kDims)
      b.state[s][lane] = __fmaf_rn(b.state[s][lane], 0.9990234375f, a / static_cast<float>(rows) * 0.0009765625f);
    __syncwarp();
    if (lane == 0) ++b.tokens[s];
  }
  __syncthreads();
  if (threadIdx.x == 0) {  // retire finished requests, keeping arrival order
    int kept = 0;
    for (int s = 0; s < b.n; ++s) {
      const int r = b.id[s];
      if (b.tokens[s] == trace[r].output_len) {
        for (int k = 0; k < kDims; ++k) y[r * kDims + k] = b.state[s][k];
        __threadfence();
        completion_ns[r] = globaltimer_ns();
      } else {
        b.id[kept] = r, b.tokens[kept] = b.tokens[s];
        for (int k = 0; k < kDims; ++k) b.state[kept][k] = b.state[s][k];
        ++kept;
      }
    }
    b.n = kept;
  }
  __syncthreads();
}

__device__ __forceinline__ void admit(Batch& b, int r) {  // thread 0
  b.id[b.n] = r, b.tokens[b.n] = 0;
  for (int k = 0; k < kDims; ++k) b.state[b.n][k] = 0.0f;
  ++b.n;
}

class PrefillDecodeDisaggBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"requests", kRequests}, {"engines", 2}, {"prefill_fma", kPrefillFma}, {"step_fma", kStepFma}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kRequests * kDims * sizeof(float);
    w.items = kRequests;
    w.item_unit = "requests";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::latency; }
  void setup(aisp::Context& ctx) override {
    aisp::TraceSpec spec;
    spec.requests = kRequests;
    spec.mean_interarrival_us = kMeanGapUs;
    spec.prompt_min = kPromptMin, spec.prompt_max = kPromptMax;
    spec.output_min = kOutMin, spec.output_max = kOutMax;
    trace_ = ctx.request_trace("trace", spec);
    ctx.input("x", aisp::DType::f32, {kRequests, kDims});
    ctx.output("y", aisp::DType::f32, {kRequests, kDims});
    const size_t pool = size_t(kRequests) * kRowsMax * kDims * sizeof(float);
    pool_a_ = static_cast<float*>(ctx.scratch("kv_pool_prefill", pool));
    pool_b_ = static_cast<float*>(ctx.scratch("kv_pool_decode", pool));
    sink_ = static_cast<float*>(ctx.scratch("step_sink", 2 * kThreads * sizeof(float)));
    ready_ = static_cast<int*>(ctx.scratch("handoff_flags", kRequests * sizeof(int)));
  }

 protected:
  const aisp::TraceRequest* device_trace() const { return static_cast<const aisp::TraceRequest*>(trace_.device.data); }
  aisp::RequestTrace trace_;
  float* pool_a_ = nullptr;
  float* pool_b_ = nullptr;
  float* sink_ = nullptr;
  int* ready_ = nullptr;
};

}  // namespace pd
