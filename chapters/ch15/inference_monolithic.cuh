// inference_monolithic: serving a request trace whose requests each need a prefill (all prompt tokens at
// once: wide, GPU-filling) and a decode (one token after another: narrow, latency-bound), judged on the
// p99 time to first token (TTFT; Goal::latency). 32 requests from the harness's seeded trace: Poisson
// arrivals with a mean gap of 30 us, prompts of 128-1024 tokens, 16-64 output tokens.
//   prefill(r): a gate kernel waits for r's arrival, then one block per prompt token (256 threads, a chain
//               of kPrefillFma dependent FMAs per thread, its token's state row written to `kv`); the last
//               block to finish stamps r's completion: the first token exists once prefill is done (it
//               comes from the last position's logits), so that stamp is r's TTFT.
//   decode(r):  one block: r's state = the sum of its prompt rows (in order), then output_len tokens of
//               kDecodeFma dependent FMAs each; writes y[r].
// Both variants run exactly these kernels per request, so outputs match bit for bit. They differ in where:
//   baseline_inference_monolithic.cu   one stream in arrival order: gate(r), prefill(r), decode(r), gate(r+1)
//                                      ... - an engine that runs each request to completion. A request's
//                                      prefill waits for every earlier request's whole decode.
//   optimized_inference_monolithic.cu  prefill on a low-priority stream, decode on a high-priority stream,
//                                      an event from prefill(r) to decode(r): prefills never wait behind
//                                      decodes, and decode blocks are scheduled ahead of pending prefill
//                                      blocks (stream priorities; protects TPOT, which is not judged here).
// Expected on H100: a prefill ~4-16 us (one wave of <= 1024 blocks), a decode ~1.2 us per token x 40 tokens
// ~50 us per request, against a 30 us arrival gap:
// the monolithic stream falls behind and its queue grows over the trace (p99 TTFT ~1 ms); split, the
// prefill stream (~10 us per prefill) keeps up: p99 TTFT a few tens of us, >10x lower.
//
// Trace-size axes (issue 24, bad input): `--axis requests=N` (default 32) and `--axis prompt_max=P`
// (default 1024; prompts are drawn from P/8..P, so the default is the 128-1024 above). The prompt rows are
// packed request after request (row offsets from the host trace), so the KV footprint is the trace's own:
// sum of prompt lengths x 1 KiB (one 256-float row per prompt token; decode keeps its state in registers
// and appends none). setup() checks it against the device's free memory before allocating anything sized
// by the trace (trace_kv_budget.hpp) and fails with the numbers when it does not fit, e.g. `aisp bench run
// -t ch15:inference_monolithic --axis requests=1M` (~576 GiB of KV cache) on a 141 GB H200.
#pragma once
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "trace_kv_budget.hpp"

inline constexpr double kPdMeanGapUs = 30;
inline constexpr int kPdOutputMin = 16, kPdOutputMax = 64;
inline constexpr int kPdState = 256;      // floats per token row (one per thread)
inline constexpr int kPrefillFma = 2048;  // dependent FMAs per thread per prompt token
inline constexpr int kDecodeFma = 512;    // dependent FMAs per thread per output token
inline constexpr int64_t kPdRowBytes = kPdState * sizeof(float);  // one prompt token's row: 1 KiB
// Arrival times are int32 microseconds: 2^24 requests 30 us apart span ~500 s, well inside 2^31 us.
inline constexpr int64_t kPdMaxRequests = int64_t{1} << 24;

// The trace's size, from the command line (`--axis`) or the defaults.
inline int64_t pd_requests() { return aisp::axis("requests", 32); }
inline int64_t pd_prompt_max() { return aisp::axis("prompt_max", 1024); }
inline int64_t pd_prompt_min() { return pd_prompt_max() / 8 > 0 ? pd_prompt_max() / 8 : 1; }

namespace inference_pd {

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread spins until request r has arrived (window open + arrival); the stream orders r's prefill after it.
__global__ void gate_arrival(const aisp::TraceRequest* __restrict__ trace, int r, const unsigned long long* open) {
  const unsigned long long due = *reinterpret_cast<const volatile unsigned long long*>(open) + 1000ull * trace[r].arrival_us;
  while (globaltimer_ns() < due) {}
}

// Block b = prompt token b of request r. The last block done stamps r's first token (TTFT).
// r's prompt rows start at row `row0` of kv (the rows of earlier requests before them).
__global__ void prefill(const aisp::TraceRequest* __restrict__ trace, int r, int64_t row0, const float* __restrict__ x,
                        float* __restrict__ kv, unsigned* __restrict__ blocks_done, unsigned long long* completion_ns) {
  const int t = threadIdx.x, b = blockIdx.x;
  float v = x[static_cast<int64_t>(r) * kPdState + t] + 0.0009765625f * static_cast<float>(b);
  for (int k = 0; k < kPrefillFma; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  kv[(row0 + b) * kPdState + t] = v;
  __threadfence();
  __syncthreads();
  if (t == 0 && atomicAdd(&blocks_done[r], 1u) == static_cast<unsigned>(trace[r].prompt_len) - 1) {
    __threadfence();
    completion_ns[r] = globaltimer_ns();
  }
}

// One block: r's state from its prompt rows, then output_len tokens.
__global__ void decode(const aisp::TraceRequest* __restrict__ trace, int r, int64_t row0, const float* __restrict__ kv,
                       float* __restrict__ y) {
  const int t = threadIdx.x;
  const aisp::TraceRequest req = trace[r];
  float v = 0;
  for (int b = 0; b < req.prompt_len; ++b) v += kv[(row0 + b) * kPdState + t];
  v *= 1.0f / 1024.0f;
  for (int k = 0; k < req.output_len * kDecodeFma; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  y[static_cast<int64_t>(r) * kPdState + t] = v;
}

}  // namespace inference_pd

class InferenceMonolithicBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"requests", pd_requests()},
                {"prompt_max", pd_prompt_max()},
                {"state", kPdState},
                {"prefill_fma", kPrefillFma},
                {"decode_fma", kDecodeFma}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * pd_requests() * kPdState * sizeof(float);
    w.items = static_cast<double>(pd_requests());
    w.item_unit = "requests";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::latency; }

  void setup(aisp::Context& ctx) override {
    const int64_t requests = ctx.param("requests"), prompt_max = ctx.param("prompt_max");
    if (requests > kPdMaxRequests || prompt_max > INT32_MAX)
      throw std::invalid_argument("inference_monolithic: requests=" + std::to_string(requests) +
                                  ", prompt_max=" + std::to_string(prompt_max) +
                                  ": the trace holds at most 2^24 requests (int32 "
                                  "arrival microseconds) and prompts of at most 2^31-1 tokens (int32 lengths)");
    aisp::TraceSpec spec;
    spec.requests = static_cast<int32_t>(requests);
    spec.mean_interarrival_us = kPdMeanGapUs;
    spec.prompt_min = static_cast<int32_t>(pd_prompt_min()), spec.prompt_max = static_cast<int32_t>(prompt_max);
    spec.output_min = kPdOutputMin, spec.output_max = kPdOutputMax;
    trace_ = ctx.request_trace("trace", spec);
    // The KV rows this trace needs, checked against the free device memory before anything sized by the
    // trace is allocated: a trace too big for the GPU fails here, with its numbers, not in cudaMalloc.
    const double other = 2.0 * double(requests) * kPdRowBytes + double(requests) * sizeof(unsigned);  // x, y, counters
    const trace_kv::Footprint need = trace_kv::footprint(trace_.requests, kPdRowBytes, trace_kv::Rows::prompt, other);
    size_t free_bytes = 0, total_bytes = 0;
    AISP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (std::string why =
            trace_kv::shortfall(need, double(free_bytes), double(total_bytes), "--axis requests=... / --axis prompt_max=...");
        !why.empty())
      throw std::runtime_error("inference_monolithic: " + why);
    row0_.assign(trace_.requests.size(), 0);
    for (size_t r = 1; r < row0_.size(); ++r) row0_[r] = row0_[r - 1] + trace_.requests[r - 1].prompt_len;
    ctx.input("x", aisp::DType::f32, {requests, kPdState});
    ctx.output("y", aisp::DType::f32, {requests, kPdState});
    kv_ = static_cast<float*>(ctx.scratch("kv", size_t(need.tokens) * kPdRowBytes));
    blocks_done_ = static_cast<unsigned*>(ctx.scratch("blocks_done", size_t(requests) * sizeof(unsigned)));
  }

 protected:
  int requests() const { return static_cast<int>(trace_.requests.size()); }
  const aisp::TraceRequest* device_trace() const { return static_cast<const aisp::TraceRequest*>(trace_.device.data); }
  // The three kernels of request r on the given streams (gate and prefill on `p`, decode on `d`); with two
  // streams, `ready` carries prefill(r)'s completion to the decode stream.
  void enqueue_request(aisp::Context& ctx, int r, cudaStream_t p, cudaStream_t d, cudaEvent_t ready) {
    const aisp::TraceRequest& req = trace_.requests[r];
    inference_pd::gate_arrival<<<1, 1, 0, p>>>(device_trace(), r, trace_.window_open_ns);
    inference_pd::prefill<<<req.prompt_len, kPdState, 0, p>>>(device_trace(), r, row0_[r], ctx.buffer("x").as<const float>(),
                                                              kv_, blocks_done_, trace_.completion_ns);
    if (ready) {
      AISP_CUDA_CHECK(cudaEventRecord(ready, p));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(d, ready, 0));
    }
    inference_pd::decode<<<1, kPdState, 0, d>>>(device_trace(), r, row0_[r], kv_, ctx.buffer("y").as<float>());
    AISP_LAUNCH_CHECK();
  }
  void reset_counters(cudaStream_t s) {
    AISP_CUDA_CHECK(cudaMemsetAsync(blocks_done_, 0, trace_.requests.size() * sizeof(unsigned), s));
  }

  aisp::RequestTrace trace_;
  std::vector<int64_t> row0_;  // first kv row of each request: the prompts packed in request order
  float* kv_ = nullptr;
  unsigned* blocks_done_ = nullptr;
};
