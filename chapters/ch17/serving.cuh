// A tiny serving system on the GPU, shared by the ch17 routing and admission pairs: one persistent kernel
// holds a router (the last CTA, one thread) and `workers` worker CTAs (256 threads each), all resident at
// once (a few CTAs on a 132-SM GPU). The router walks the harness's request trace in arrival order, waits
// until each request arrives (%globaltimer against the window-open stamp), decides where it goes and
// appends its id to that worker's queue (release store of the queue's tail). A worker pops its queue in
// order (acquire load of the tail) and serves each request: a prefill of prompt_len x kPrefillFma and a
// decode of output_len tokens x kDecodeFma dependent FMAs per thread over the request's 256-float state,
// then writes y[r] and stamps r's completion. Each worker publishes the work it has finished (in FMAs), so
// the router can see every queue's real backlog. y[r] depends only on x[r] and r's lengths: the same bits
// whatever the routing, so every variant verifies under the default fp32 tolerance.
#pragma once
#include <cuda/atomic>

#include <cstdint>

#include "../common/request_io.hpp"
#include "aisp/aisp.hpp"

namespace serving {

constexpr int kState = 256;  // floats per request state (one per worker thread)
constexpr int kMaxWorkers = 32;

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void wait_for_arrival(const unsigned long long* open, int32_t arrival_us) {
  const unsigned long long due = *reinterpret_cast<const volatile unsigned long long*>(open) + 1000ull * arrival_us;
  while (globaltimer_ns() < due) {}
}

__device__ __forceinline__ float fma_chain(float v, int n) {
  for (int k = 0; k < n; ++k) v = __fmaf_rn(v, 0.9990234375f, 0.0009765625f);
  return v;
}

// Per-run shared state, in scratch zeroed by run() before the kernel (cudaMemsetAsync on the stream).
struct Queues {
  int* ids;                       // [workers][requests]: the requests routed to each worker, in order
  int* tail;                      // [workers]: how many ids are valid (release/acquire)
  unsigned long long* done_work;  // [workers]: FMAs finished per thread (progress the router can read)
  int* closed;                    // the router has routed every request
  static size_t bytes(int workers, int requests) {
    return size_t(workers) * requests * 4 + size_t(workers) * 4 + size_t(workers) * 8 + 64;
  }
  void carve(void* base, int workers, int requests) {
    auto* p = static_cast<char*>(base);
    done_work = reinterpret_cast<unsigned long long*>(p);
    tail = reinterpret_cast<int*>(p + size_t(workers) * 8);
    closed = tail + workers;
    ids = closed + 16;
  }
};

using AtomicInt = cuda::atomic_ref<int, cuda::thread_scope_device>;
using AtomicU64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

struct Costs {
  int prefill_fma;  // per prompt token
  int decode_fma;   // per output token
};

// The workload of a pair served this way: `requests` requests over `workers` workers at the given costs;
// each request's state read from x and written to y once (f32 [requests][kState]).
inline aisp::Workload request_workload(int requests, int workers, const Costs& costs) {
  aisp::Workload w;
  w.params = {{"requests", requests},
              {"workers", workers},
              {"state", kState},
              {"prefill_fma", costs.prefill_fma},
              {"decode_fma", costs.decode_fma}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * requests * kState * sizeof(float);
  w.items = requests;
  w.item_unit = "requests";
  return w;
}

// The work a request costs its worker, in FMAs per thread (the router's unit of backlog).
__device__ __host__ __forceinline__ unsigned long long request_work(const aisp::TraceRequest& r, Costs c, bool decode) {
  return static_cast<unsigned long long>(r.prompt_len) * c.prefill_fma +
         (decode ? static_cast<unsigned long long>(r.output_len) * c.decode_fma : 0ull);
}

// Router side: appends request `id` to worker w's queue.
__device__ __forceinline__ void push(const Queues& q, int requests, int w, int id, int& tail_local) {
  q.ids[w * requests + tail_local] = id;
  ++tail_local;
  AtomicInt(q.tail[w]).store(tail_local, cuda::memory_order_release);
}

// Worker side: the next request id of worker w after `head`, or -1 once the router is done and the queue
// is drained. Thread 0 polls; the id is broadcast through shared memory.
__device__ __forceinline__ int pop(const Queues& q, int requests, int w, int head) {
  __shared__ int next;
  if (threadIdx.x == 0) {
    for (;;) {
      const int closed = AtomicInt(*q.closed).load(cuda::memory_order_acquire);
      if (AtomicInt(q.tail[w]).load(cuda::memory_order_acquire) > head) {
        next = q.ids[w * requests + head];
        break;
      }
      if (closed) {  // closed was set after the last push: a tail read after it is final
        next = -1;
        break;
      }
    }
  }
  __syncthreads();
  const int id = next;
  __syncthreads();
  return id;
}

// Serves request r on this worker: prefill, then (unless `decode` is false) the output tokens; writes y[r]
// (zeros for a request rejected after its prefill) and stamps r's completion. Progress is published after
// the prefill and after every token.
__device__ __forceinline__ void serve(const aisp::TraceRequest& r, Costs c, bool decode, const float* __restrict__ x,
                                      float* __restrict__ y, unsigned long long* completion_ns, unsigned long long* done_work) {
  const int t = threadIdx.x;
  float v = fma_chain(x[r.id * kState + t], r.prompt_len * c.prefill_fma);
  if (t == 0)
    AtomicU64(*done_work).fetch_add(static_cast<unsigned long long>(r.prompt_len) * c.prefill_fma, cuda::memory_order_relaxed);
  if (decode) {
    for (int k = 0; k < r.output_len; ++k) {
      v = fma_chain(v, c.decode_fma);
      if (t == 0) AtomicU64(*done_work).fetch_add(c.decode_fma, cuda::memory_order_relaxed);
    }
  }
  y[r.id * kState + t] = decode ? v : 0.0f;
  __syncthreads();
  if (t == 0) {
    __threadfence();
    completion_ns[r.id] = globaltimer_ns();
  }
}

// A worker CTA's loop (worker w = blockIdx.x): pop the requests routed to it, in order, and serve each
// (decode(id) false: its prefill only) until the router has closed the queues and w's queue is empty.
template <class Decode>
__device__ __forceinline__ void work(const Queues& q, int requests, const aisp::TraceRequest* __restrict__ trace, Costs c,
                                     Decode decode, const float* __restrict__ x, float* __restrict__ y,
                                     unsigned long long* completion_ns) {
  const int w = blockIdx.x;
  for (int head = 0;; ++head) {
    const int id = pop(q, requests, w, head);
    if (id < 0) break;
    serve(trace[id], c, decode(id), x, y, completion_ns, &q.done_work[w]);
  }
}

// The router's choice for a request of `work` FMAs among `workers` queues.
enum class Route { round_robin, least_work };

template <Route R>
__device__ __forceinline__ int route(int i, int workers, const unsigned long long* assigned, const Queues& q) {
  if constexpr (R == Route::round_robin) {
    return i % workers;
  } else {
    // Least outstanding work: what was routed to a worker minus what it reports done, read now.
    int best = 0;
    unsigned long long best_left = ~0ull;
    for (int w = 0; w < workers; ++w) {
      const unsigned long long done = AtomicU64(q.done_work[w]).load(cuda::memory_order_relaxed);
      const unsigned long long left = assigned[w] > done ? assigned[w] - done : 0ull;
      if (left < best_left) best_left = left, best = w;
    }
    return best;
  }
}

}  // namespace serving
