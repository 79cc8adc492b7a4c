// stream_priority: a latency-critical chain of small dependent kernels (a decode step's tiny kernels, a
// control loop) issued while a bulk job (a long elementwise pass with ~130k short blocks) occupies the GPU.
// Both run on their own streams, forked from and joined back to the harness stream; run() is the same for
// both variants and only the streams' priorities differ: baseline_stream_priority.cu creates both at the
// default priority, optimized_stream_priority.cu gives the critical stream the highest priority and the
// bulk stream the lowest. Same kernels, same elements: outputs match bit for bit.
//
// What is timed is the whole run(): the critical chain's finish time is what moves, and with the chain
// about half as long as the bulk job, that shows up as the difference between bulk + chain (the chain
// queued behind the bulk job) and ~max(bulk, chain) (the chain's blocks jump the queue).
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kPriorityBulkN = int64_t{1} << 25;  // 32 Mi floats
inline constexpr int64_t kPriorityBulkIters = 384;
inline constexpr int64_t kPriorityChainN = 256, kPriorityChainLength = 200;

namespace {

// Bulk: one element per thread, `iters` dependent FMAs; 131072 blocks of 256 threads, each ~10 us resident.
__global__ void priority_bulk(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                              const float* __restrict__ coef, int iters) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float a = coef[0], b = coef[1];
  float v = x[i];
  for (int k = 0; k < iters; ++k) v = __fmaf_rn(a, v, b);
  y[i] = v;
}

// One link of the critical chain: one block updates the 256-element state in place (the first link
// reads the input instead).
__global__ void priority_link(const float* __restrict__ in, float* __restrict__ out, const float* __restrict__ coef) {
  const int i = threadIdx.x;
  const float a = coef[2], b = coef[3];
  float v = in[i];
#pragma unroll
  for (int k = 0; k < 16; ++k) v = __fmaf_rn(a, v, b);
  out[i] = v;
}

}  // namespace

class StreamPriorityBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"bulk_n", kPriorityBulkN}, {"bulk_iters", kPriorityBulkIters}, {"chain_n", kPriorityChainN},
                {"chain_length", kPriorityChainLength}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kPriorityBulkN * sizeof(float) + 2.0 * kPriorityChainN * sizeof(float);
    w.flops = 2.0 * kPriorityBulkN * kPriorityBulkIters + 2.0 * 16 * kPriorityChainN * kPriorityChainLength;
    w.items = static_cast<double>(kPriorityChainLength);
    w.item_unit = "critical kernels";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    ctx.input("bulk_x", aisp::DType::f32, {ctx.param("bulk_n")});
    ctx.input("state", aisp::DType::f32, {ctx.param("chain_n")});
    // coef[0..1] drive the bulk job, coef[2..3] the chain; a in [0.99, 1.0) keeps both bounded.
    ctx.input("coef", aisp::DType::f32, {4}, aisp::Fill::uniform(0.99, 1.0));
    ctx.output("bulk_y", aisp::DType::f32, {ctx.param("bulk_n")});
    ctx.output("state_out", aisp::DType::f32, {ctx.param("chain_n")});
    int least = 0, greatest = 0;  // numerically: greatest priority is the most negative
    AISP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    AISP_CUDA_CHECK(cudaStreamCreateWithPriority(&bulk_, cudaStreamNonBlocking, prioritize_ ? least : 0));
    AISP_CUDA_CHECK(cudaStreamCreateWithPriority(&critical_, cudaStreamNonBlocking, prioritize_ ? greatest : 0));
    for (cudaEvent_t* e : {&fork_, &bulk_done_, &critical_done_})
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  }

  // Bulk job first (it is already running when the critical work arrives), then the chain; both joined.
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    const float* coef = ctx.buffer("coef").as<const float>();
    AISP_CUDA_CHECK(cudaEventRecord(fork_, s));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(bulk_, fork_));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(critical_, fork_));
    const int64_t n = ctx.param("bulk_n");
    priority_bulk<<<static_cast<unsigned>((n + 255) / 256), 256, 0, bulk_>>>(
        ctx.buffer("bulk_x").as<const float>(), ctx.buffer("bulk_y").as<float>(), n, coef,
        static_cast<int>(ctx.param("bulk_iters")));
    AISP_LAUNCH_CHECK();
    float* state = ctx.buffer("state_out").as<float>();
    const int chain_n = static_cast<int>(ctx.param("chain_n"));
    for (int64_t k = 0; k < ctx.param("chain_length"); ++k) {
      priority_link<<<1, chain_n, 0, critical_>>>(k == 0 ? ctx.buffer("state").as<const float>() : state, state, coef);
      AISP_LAUNCH_CHECK();
    }
    AISP_CUDA_CHECK(cudaEventRecord(bulk_done_, bulk_));
    AISP_CUDA_CHECK(cudaEventRecord(critical_done_, critical_));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(s, bulk_done_));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(s, critical_done_));
  }

  void teardown(aisp::Context&) override {
    for (cudaStream_t st : {bulk_, critical_})
      if (st) cudaStreamSynchronize(st), cudaStreamDestroy(st);
    for (cudaEvent_t e : {fork_, bulk_done_, critical_done_})
      if (e) cudaEventDestroy(e);
  }

 protected:
  explicit StreamPriorityBase(bool prioritize) : prioritize_(prioritize) {}

 private:
  bool prioritize_;
  cudaStream_t bulk_ = nullptr, critical_ = nullptr;
  cudaEvent_t fork_ = nullptr, bulk_done_ = nullptr, critical_done_ = nullptr;
};
