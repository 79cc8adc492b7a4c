// ch15 inference_monolithic, optimized: prefill and decode split onto two streams with priorities
// (inference_monolithic.cuh). Prefills (gate + prefill kernels) go in arrival order on a low-priority
// stream, decodes on a high-priority stream, each decode(r) behind an event recorded after prefill(r).
// Both streams fork from the harness stream and join back into it, so the timed window holds all the work.
// Why TTFT drops: a prefill no longer waits for earlier requests' decodes (head-of-line blocking), and the
// prefill stream alone keeps up with the arrivals. The priorities make the block scheduler dispatch a
// pending decode block before pending prefill blocks, so decode (TPOT) is not starved by the wide
// prefills. Expected on H100: p99 TTFT a few tens of us, >10x lower. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): p99 TTFT 0.0786 ms vs 1.735 ms monolithic (22.1x [21.6, 22.5]).
#include <vector>

#include "inference_monolithic.cuh"

class SplitPrefillDecode : public InferenceMonolithicBase {
 public:
  std::string technique() const override {
    return "prefill on a low-priority stream, decode on a high-priority stream, event per request";
  }
  void setup(aisp::Context& ctx) override {
    InferenceMonolithicBase::setup(ctx);
    int least = 0, greatest = 0;  // numerically: least = lowest priority (0), greatest = highest (-5 on H100)
    AISP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    AISP_CUDA_CHECK(cudaStreamCreateWithPriority(&prefill_, cudaStreamNonBlocking, least));
    AISP_CUDA_CHECK(cudaStreamCreateWithPriority(&decode_, cudaStreamNonBlocking, greatest));
    ready_.assign(requests(), nullptr);
    for (cudaEvent_t& e : ready_) AISP_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    for (cudaEvent_t* e : {&fork_, &joined_prefill_, &joined_decode_})
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    reset_counters(s);
    AISP_CUDA_CHECK(cudaEventRecord(fork_, s));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(prefill_, fork_, 0));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(decode_, fork_, 0));
    for (int r = 0; r < requests(); ++r) enqueue_request(ctx, r, prefill_, decode_, ready_[r]);
    AISP_CUDA_CHECK(cudaEventRecord(joined_prefill_, prefill_));
    AISP_CUDA_CHECK(cudaEventRecord(joined_decode_, decode_));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(s, joined_prefill_, 0));
    AISP_CUDA_CHECK(cudaStreamWaitEvent(s, joined_decode_, 0));
  }
  void teardown(aisp::Context&) override {
    // Only what setup() created: it may have stopped early (a trace too big for the device).
    for (cudaEvent_t e : ready_)
      if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : {fork_, joined_prefill_, joined_decode_})
      if (e) cudaEventDestroy(e);
    if (prefill_) cudaStreamDestroy(prefill_);
    if (decode_) cudaStreamDestroy(decode_);
  }

 private:
  cudaStream_t prefill_ = nullptr, decode_ = nullptr;
  std::vector<cudaEvent_t> ready_;  // one per request
  cudaEvent_t fork_ = nullptr, joined_prefill_ = nullptr, joined_decode_ = nullptr;
};

AISP_BENCHMARK(SplitPrefillDecode)
