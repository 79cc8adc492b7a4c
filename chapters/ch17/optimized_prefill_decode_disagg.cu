// ch17 prefill_decode_disagg, optimized: a prefill engine and a decode engine with a KV transfer between
// their pools (prefill_decode_disagg.cuh).
//
// Technique: engine 0 waits for each request in arrival order, runs its prefill into the prefill pool,
// copies the request's KV rows into the decode pool (the transfer: on one GPU a copy between two memory
// regions, where two GPUs would use NVLink/RDMA), fences, and sets the request's hand-off flag (release).
// Engine 1 admits handed-over requests in order (acquire) at the top of every iteration and runs decode
// steps back to back over all of them, reading only its own pool.
// Why it is faster: no decode step ever waits for a prefill, and the decode batch is every running request
// (twice what a colocated engine holds), so the step's shared cost is paid once for twice the requests.
// The prefill engine runs at ~65% load, so requests rarely queue for it.
// Expected on Hopper: p99 end-to-end ~1.2-1.35x lower than colocated (~1.0-1.1 ms against ~1.35 ms).
// Measured (H100 SXM, harness cold mode, 2026-11-28): first regime p99 1.088 ms against 935 us, SLOWER
// (0.86x); second regime 1.462 ms against 1.500 ms, 1.026x [1.007, 1.044], SAME, all checks passed: a
// decode step's per-request work still grew with the batch (serial retirement, slot-by-slot reads), which
// cost the decode engine's doubled batch what it gained (prefill_decode_disagg.cuh). Fixed in the shared
// decode_step (both variants). With it (2026-11-28, docs/measurements/closing_calls_20261128.md): H100 80GB
// HBM3 p99 1.091 ms against 1.362 ms, 1.249x [1.226, 1.272], FASTER; H200 p99 1.091 ms against 1.476 ms,
// 1.353x [1.328, 1.377], FASTER; all checks passed on both.
#include "prefill_decode_disagg.cuh"

namespace {

using namespace pd;

using Flag = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void __launch_bounds__(kThreads)
    disaggregated_engines(const aisp::TraceRequest* __restrict__ trace, const unsigned long long* open,
                          const float* __restrict__ x, float* __restrict__ y, unsigned long long* completion_ns,
                          float* __restrict__ pool_prefill, float* __restrict__ pool_decode, int* ready, float* sink) {
  if (blockIdx.x == 0) {  // the prefill engine
    for (int r = 0; r < kRequests; ++r) {
      if (threadIdx.x == 0) {
        while (globaltimer_ns() < due_ns(open, trace[r].arrival_us)) {}
      }
      __syncthreads();
      const int prompt = trace[r].prompt_len;
      prefill_rows(r, prompt, x, pool_prefill);
      __syncthreads();
      const int64_t base = int64_t(r) * kRowsMax * kDims;
      for (int i = threadIdx.x; i < kv_rows(prompt) * kDims; i += blockDim.x) pool_decode[base + i] = pool_prefill[base + i];
      __threadfence();  // every thread's part of the transfer is visible device-wide ...
      __syncthreads();
      if (threadIdx.x == 0) Flag(ready[r]).store(1, cuda::memory_order_release);  // ... before the flag
    }
    return;
  }
  __shared__ Batch b;  // the decode engine
  __shared__ int admitted;
  if (threadIdx.x == 0) b.n = 0, admitted = 0;
  __syncthreads();
  int done = 0;
  while (done < kRequests) {
    if (threadIdx.x == 0)
      while (admitted < kRequests && Flag(ready[admitted]).load(cuda::memory_order_acquire)) admit(b, admitted++);
    __syncthreads();
    if (b.n > 0) {
      const int before = b.n;
      decode_step(b, trace, pool_decode, y, completion_ns, sink);
      done += before - b.n;
    }
    __syncthreads();
  }
}

class DisaggregatedEngines : public PrefillDecodeDisaggBase {
 public:
  std::string technique() const override {
    return "disaggregated: prefill engine -> KV transfer between pools -> decode engine";
  }
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(cudaMemsetAsync(ready_, 0, kRequests * sizeof(int), ctx.stream()));
    disaggregated_engines<<<2, kThreads, 0, ctx.stream()>>>(device_trace(), trace_.window_open_ns,
                                                            ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                                            trace_.completion_ns, pool_a_, pool_b_, ready_, sink_);
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace

AISP_BENCHMARK(DisaggregatedEngines)
