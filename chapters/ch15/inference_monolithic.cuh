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
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int32_t kPdRequests = 32;
inline constexpr double kPdMeanGapUs = 30;
inline constexpr int kPdPromptMin = 128, kPdPromptMax = 1024, kPdOutputMin = 16, kPdOutputMax = 64;
inline constexpr int kPdState = 256;      // floats per token row (one per thread)
inline constexpr int kPrefillFma = 2048;  // dependent FMAs per thread per prompt token
inline constexpr int kDecodeFma = 512;    // dependent FMAs per thread per output token

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
__global__ void prefill(const aisp::TraceRequest* __restrict__ trace, int r, const float* __restrict__ x,
                        float* __restrict__ kv, unsigned* __restrict__ blocks_done, unsigned long long* completion_ns) {
  const int t = threadIdx.x, b = blockIdx.x;
  float v = x[r * kPdState + t] + 0.0009765625f * static_cast<float>(b);
  for (int k = 0; k < kPrefillFma; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  kv[(static_cast<int64_t>(r) * kPdPromptMax + b) * kPdState + t] = v;
  __threadfence();
  __syncthreads();
  if (t == 0 && atomicAdd(&blocks_done[r], 1u) == static_cast<unsigned>(trace[r].prompt_len) - 1) {
    __threadfence();
    completion_ns[r] = globaltimer_ns();
  }
}

// One block: r's state from its prompt rows, then output_len tokens.
__global__ void decode(const aisp::TraceRequest* __restrict__ trace, int r, const float* __restrict__ kv,
                       float* __restrict__ y) {
  const int t = threadIdx.x;
  const aisp::TraceRequest req = trace[r];
  float v = 0;
  for (int b = 0; b < req.prompt_len; ++b) v += kv[(static_cast<int64_t>(r) * kPdPromptMax + b) * kPdState + t];
  v *= 1.0f / 1024.0f;
  for (int k = 0; k < req.output_len * kDecodeFma; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  y[r * kPdState + t] = v;
}

}  // namespace inference_pd

class InferenceMonolithicBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"requests", kPdRequests}, {"state", kPdState}, {"prefill_fma", kPrefillFma}, {"decode_fma", kDecodeFma}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kPdRequests * kPdState * sizeof(float);
    w.items = static_cast<double>(kPdRequests);
    w.item_unit = "requests";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::latency; }

  void setup(aisp::Context& ctx) override {
    aisp::TraceSpec spec;
    spec.requests = kPdRequests;
    spec.mean_interarrival_us = kPdMeanGapUs;
    spec.prompt_min = kPdPromptMin, spec.prompt_max = kPdPromptMax;
    spec.output_min = kPdOutputMin, spec.output_max = kPdOutputMax;
    trace_ = ctx.request_trace("trace", spec);
    ctx.input("x", aisp::DType::f32, {kPdRequests, kPdState});
    ctx.output("y", aisp::DType::f32, {kPdRequests, kPdState});
    kv_ = static_cast<float*>(ctx.scratch("kv", size_t(kPdRequests) * kPdPromptMax * kPdState * sizeof(float)));
    blocks_done_ = static_cast<unsigned*>(ctx.scratch("blocks_done", kPdRequests * sizeof(unsigned)));
  }

 protected:
  const aisp::TraceRequest* device_trace() const { return static_cast<const aisp::TraceRequest*>(trace_.device.data); }
  // The three kernels of request r on the given streams (gate and prefill on `p`, decode on `d`); with two
  // streams, `ready` carries prefill(r)'s completion to the decode stream.
  void enqueue_request(aisp::Context& ctx, int r, cudaStream_t p, cudaStream_t d, cudaEvent_t ready) {
    const aisp::TraceRequest& req = trace_.requests[r];
    inference_pd::gate_arrival<<<1, 1, 0, p>>>(device_trace(), r, trace_.window_open_ns);
    inference_pd::prefill<<<req.prompt_len, kPdState, 0, p>>>(device_trace(), r, ctx.buffer("x").as<const float>(), kv_,
                                                              blocks_done_, trace_.completion_ns);
    if (ready) {
      AISP_CUDA_CHECK(cudaEventRecord(ready, p));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(d, ready, 0));
    }
    inference_pd::decode<<<1, kPdState, 0, d>>>(device_trace(), r, kv_, ctx.buffer("y").as<float>());
    AISP_LAUNCH_CHECK();
  }
  void reset_counters(cudaStream_t s) { AISP_CUDA_CHECK(cudaMemsetAsync(blocks_done_, 0, kPdRequests * sizeof(unsigned), s)); }

  aisp::RequestTrace trace_;
  float* kv_ = nullptr;
  unsigned* blocks_done_ = nullptr;
};
