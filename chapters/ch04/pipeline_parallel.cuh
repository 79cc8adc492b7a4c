// pipeline_parallel (seed ch04 pipeline_parallel): a model cut into one stage per rank. Stage s is an
// element-wise layer (64 dependent FMA+sin steps per element, its own constant); rank 0 applies stage 0 to its
// batch x (256 rows x 64 Ki fp32 = 64 MiB) and sends the activations to rank 1, which applies stage 1, and so
// on. Every rank's output is its stage's activations (rank 0: stage 0's, the last rank: the model's output),
// verified against the baseline's same rank.
// - naive (baseline): the whole batch goes through a stage before anything is sent (1 micro-batch), so the
//   ranks take turns: time ≈ R x compute + (R-1) x transfer;
// - micro-batched (optimized, GPipe's schedule): the batch is cut into 8 micro-batches; rank 0 sends
//   micro-batch i (on a communication stream) while it computes i+1, and rank 1 computes i while i+1 arrives:
//   time ≈ compute + (R-1) x (compute + transfer) / 8.
// Both variants run the same schedule code with a different micro-batch count (run_pipeline below), and end
// with a barrier so that each rank's timed window covers the whole step (nccl_ranks.cuh, end_of_step).
//
// Expected on 2 H100s: ~0.34 ms of compute per stage and ~0.25 ms to move 64 MiB over NVLink: naive ~0.9 ms,
// 8 micro-batches ~0.45 ms: ~2x. Measured on 2 H200s (2026-11-28, before the end-of-step barrier, in a run
// made INVALID by a K16 false positive since fixed): 519 us vs 452 us, because without the barrier rank 0
// began the next step while rank 1 finished the last one, pipelining the naive baseline across samples.
#pragma once
#include <vector>

#include "nccl_ranks.cuh"

namespace pipeline_parallel {

inline constexpr int64_t kRows = 256, kCols = int64_t{1} << 16;  // 16 Mi fp32 = 64 MiB
inline constexpr int kIters = 64;

struct Base : ch04::RankedBenchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"rows", kRows}, {"cols", kCols}, {"iters", kIters}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kRows * kCols * sizeof(float);  // a stage reads its input and writes its activations
    w.flops = 2.0 * kIters * kRows * kCols;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {kRows, kCols});   // the batch (rank 0's is the pipeline's input)
    ctx.output("y", aisp::DType::f32, {kRows, kCols});  // this rank's stage output
    act_ = static_cast<float*>(ctx.scratch("act", kRows * kCols * sizeof(float)));  // what the previous stage sent
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&comm_stream_, cudaStreamNonBlocking));
    events_.resize(2 * micro_batches() + 1);
    for (auto& e : events_) AISP_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    connect(ctx);
  }
  void teardown(aisp::Context& ctx) override {
    RankedBenchmark::teardown(ctx);
    for (auto& e : events_) cudaEventDestroy(e);
    cudaStreamDestroy(comm_stream_);
  }
  void run(aisp::Context& ctx) override { run_pipeline(ctx); }

 protected:
  virtual int micro_batches() const = 0;

  // This rank's stage over the batch in micro-batches: receive micro-batch i from the previous rank (comm
  // stream), compute it (harness stream), send it to the next rank (comm stream). Events order each micro-batch's
  // three steps; the harness stream waits for the comm stream at the end, so everything is joined to it.
  void run_pipeline(aisp::Context& ctx) {
    const int r = ch04::rank(), n = ch04::world(), mb = micro_batches();
    const int64_t len = kRows / mb * kCols;
    cudaStream_t main = ctx.stream();
    const float* x = ctx.buffer("x").as<float>();
    float* y = ctx.buffer("y").as<float>();
    // The comm stream starts inside the window, after whatever the harness queued before run().
    AISP_CUDA_CHECK(cudaEventRecord(events_[2 * mb], main));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(comm_stream_, events_[2 * mb], 0));
    for (int i = 0; i < mb; ++i) {
      const int64_t off = i * len;
      const float* in = x + off;
      if (r > 0) {
        nccl().check(nccl().recv(act_ + off, len, ncclFloat, r - 1, comm_, comm_stream_), "ncclRecv");
        AISP_CUDA_CHECK(cudaEventRecord(events_[2 * i], comm_stream_));
        AISP_CUDA_CHECK(cudaStreamWaitEvent(main, events_[2 * i], 0));
        in = act_ + off;
      }
      ch04::launch_layer(in, y + off, len, kIters, 0.5f * r, main);
      if (r < n - 1) {
        AISP_CUDA_CHECK(cudaEventRecord(events_[2 * i + 1], main));
        AISP_CUDA_CHECK(cudaStreamWaitEvent(comm_stream_, events_[2 * i + 1], 0));
        nccl().check(nccl().send(y + off, len, ncclFloat, r + 1, comm_, comm_stream_), "ncclSend");
      }
    }
    AISP_CUDA_CHECK(cudaEventRecord(events_[0], comm_stream_));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(main, events_[0], 0));
    end_of_step(main);  // the step ends when the last stage is done, on every rank (nccl_ranks.cuh)
  }

 private:
  float* act_ = nullptr;
  cudaStream_t comm_stream_ = nullptr;
  std::vector<cudaEvent_t> events_;
};

}  // namespace pipeline_parallel
