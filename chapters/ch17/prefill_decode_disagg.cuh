// prefill_decode_disagg: two serving engines on one GPU, colocated or disaggregated, judged on the p99
// end-to-end request latency (Goal::latency). 48 requests (Poisson, mean gap 30 us; prompts 256-1024
// tokens, 32-96 output tokens) from the harness's seeded trace. An engine is one CTA of 512 threads
// running iterations in a persistent kernel (grid of 2 engines, both resident):
//   prefill(r):    r's KV rows (one row of 4 floats per 16 prompt tokens; each element a chain of
//                  prompt_len x kPrefillFma dependent FMAs) are written into the engine's KV pool: ~8-33 us
//                  per request, ~20 us on average
//   decode step:   one step for every running request: a shared cost that does not grow with the batch
//                  (kStepFma dependent FMAs on all threads, ~8 us, standing in for reading the weights once
//                  per step) plus, per request, its <= 64 KV rows read from the pool (an attention
//                  stand-in: per-dimension sums; all requests' loads in flight at once, ~1 us per step)
//                  and its 4-float state updated; the last token writes y[r] and stamps r's completion
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
// The regime matters, and two measured versions showed it (H100 80GB HBM3, 2026-11-28):
//  - first: a step cost of ~4 us and a per-request read of up to 256 rows (~3 us, latency-bound): a
//    step's cost grew with the batch, the decode engine's doubled batch cost more than the prefills it no
//    longer waited for: disaggregation 0.86x (p99 935 us colocated, 1.088 ms disaggregated);
//  - second (~8 us shared step, <= 64 rows per request): 1.026x [1.007, 1.044] (1.500 ms vs 1.462 ms).
//    Arithmetic: both p99s are ~96 tokens x ~15 us, twice the ~8 us shared cost, so a step still cost
//    ~O(batch) on top of it: slots were read one after another (3 rounds at a batch of 48) and thread 0
//    retired requests in a serial loop through shared memory (~100-200 cycles a request). With ~20-24
//    requests per colocated engine and ~35-48 in the decode engine, that is the few us per step that ate
//    the prefill stalls disaggregation removes: a colocated engine's prefills total only ~24 x 21 us =
//    ~0.5 ms, spread over its requests' lives.
// Now (decode_step below) the step's per-request work is one memory round trip for the whole batch and a
// warp-parallel retirement, so the step costs ~9 us at any batch, as a real weight-bound decode step does;
// baseline and optimized both use it (the baseline gets faster too). Expected: colocated p99 ~96 x 9.3 us
// / (1 - ~0.35 of the engine's time in prefills) = ~1.35 ms, disaggregated ~96 x 9.3 us + prefill
// (<= 33 us) + prefill queueing (~50-150 us at 67% load) = ~1.0-1.1 ms: ~1.2-1.35x. Measured (2026-11-28,
// docs/measurements/closing_calls_20261128.md): H100 80GB HBM3 p99 1.362 -> 1.091 ms, 1.249x [1.226, 1.272],
// FASTER (call D); H200 p99 1.476 -> 1.091 ms, 1.353x [1.328, 1.377], FASTER (call C).
// With prefill-heavy traffic the single prefill engine would become the bottleneck instead.
#pragma once
#include <cuda/atomic>

#include <cstdint>

#include "../common/request_io.hpp"
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

// One decode step over the batch. Its cost must not grow with the batch (a real decode step is a weight
// read that a larger batch shares almost for free), so neither part of it is a serial loop over requests:
//  - the shared cost (kStepFma dependent FMAs on every thread; `sink` keeps it from being optimized away);
//  - the per-request reads: warp w serves batch slots w, w+16, w+32 (kRequests <= 48: every slot); lane
//    reads rows lane/4, lane/4 + 8, ... of dim lane%4 for all its slots before summing (24 loads in flight:
//    one memory round trip per step, whatever the batch), a fixed xor tree sums them per dim, lanes 0-3
//    update the state;
//  - retirement: warp 0 holds slots lane and lane+32; finished requests write y and stamp completion in
//    parallel, the others are compacted in order by ballot/popc.
// The second version retired on thread 0 (a serial loop over the batch, copying every kept state through
// shared memory) and read slots one after another: estimated ~0.1-0.2 us per request per step, a few us a
// step for the decode engine's doubled batch (H100 2026-11-28: disaggregation 1.026x; see the top). Summation order per request
// is unchanged (rows in the same order per lane, then the same xor tree): both variants call this code.
constexpr int kWarps = kThreads / 32;
constexpr int kSlotsPerWarp = (kRequests + kWarps - 1) / kWarps;
constexpr int kRowsPerLane = kRowsMax / (32 / kDims);
static_assert(kRequests <= 64, "retirement: warp 0 holds two slots per lane");
static_assert(kRowsMax % (32 / kDims) == 0, "rows per lane");

__device__ void decode_step(Batch& b, const aisp::TraceRequest* __restrict__ trace, const float* __restrict__ pool,
                            float* __restrict__ y, unsigned long long* completion_ns, float* sink) {
  sink[blockIdx.x * kThreads + threadIdx.x] = fma_chain(sink[blockIdx.x * kThreads + threadIdx.x], kStepFma);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, n = b.n;
  float v[kSlotsPerWarp][kRowsPerLane];
#pragma unroll
  for (int j = 0; j < kSlotsPerWarp; ++j) {  // every load of every slot issued before any sum
    const int s = warp + kWarps * j;
    const int r = s < n ? b.id[s] : 0, rows = s < n ? kv_rows(trace[r].prompt_len) : 0;
#pragma unroll
    for (int k = 0; k < kRowsPerLane; ++k) {
      const int row = lane / kDims + k * (32 / kDims);
      v[j][k] = row < rows ? pool[(int64_t(r) * kRowsMax + row) * kDims + lane % kDims] : 0.0f;
    }
  }
#pragma unroll
  for (int j = 0; j < kSlotsPerWarp; ++j) {
    const int s = warp + kWarps * j;
    if (s >= n) break;  // warp-uniform
    const int rows = kv_rows(trace[b.id[s]].prompt_len);
    float a = 0.0f;
#pragma unroll
    for (int k = 0; k < kRowsPerLane; ++k) a += v[j][k];  // rows past the prompt add 0
#pragma unroll
    for (int o = 4; o < 32; o *= 2) a += __shfl_xor_sync(0xffffffffu, a, o);
    if (lane < kDims)
      b.state[s][lane] = __fmaf_rn(b.state[s][lane], 0.9990234375f, a / static_cast<float>(rows) * 0.0009765625f);
    __syncwarp();
    if (lane == 0) ++b.tokens[s];
  }
  __syncthreads();
  if (warp == 0) {  // retire finished requests, keeping arrival order
    int id[2] = {0, 0}, tok[2] = {0, 0};
    float st[2][kDims];
    bool keep[2];
#pragma unroll
    for (int c = 0; c < 2; ++c) {
      const int s = lane + 32 * c;
      const bool live = s < n;
      bool fin = false;
      if (live) {
        id[c] = b.id[s], tok[c] = b.tokens[s];
#pragma unroll
        for (int k = 0; k < kDims; ++k) st[c][k] = b.state[s][k];
        fin = tok[c] == trace[id[c]].output_len;
      }
      if (fin) {
#pragma unroll
        for (int k = 0; k < kDims; ++k) y[id[c] * kDims + k] = st[c][k];
        __threadfence();
        completion_ns[id[c]] = globaltimer_ns();
      }
      keep[c] = live && !fin;
    }
    const unsigned k0 = __ballot_sync(0xffffffffu, keep[0]), k1 = __ballot_sync(0xffffffffu, keep[1]);
    const unsigned below = (1u << lane) - 1u;
    __syncwarp();  // every read of the old slots happens before any write below
#pragma unroll
    for (int c = 0; c < 2; ++c) {
      if (!keep[c]) continue;
      const int dst = c == 0 ? __popc(k0 & below) : __popc(k0) + __popc(k1 & below);
      b.id[dst] = id[c], b.tokens[dst] = tok[c];
#pragma unroll
      for (int k = 0; k < kDims; ++k) b.state[dst][k] = st[c][k];
    }
    if (lane == 0) b.n = __popc(k0) + __popc(k1);
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
    trace_ = request_io::trace_with_state(ctx, kRequests, kMeanGapUs, {kPromptMin, kPromptMax, kOutMin, kOutMax}, kDims);
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
