// The harness side of a request trace (Goal::latency): one device slot per request for its completion
// stamp plus one for the window-open stamp; after each timed run the latencies are read back and reduced
// to the benchmark's percentile.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "aisp/request_trace.hpp"

namespace aisp {

class RequestLatency {
 public:
  RequestLatency(std::vector<TraceRequest> trace, double percentile);
  ~RequestLatency();
  RequestLatency(const RequestLatency&) = delete;
  RequestLatency& operator=(const RequestLatency&) = delete;

  const unsigned long long* window_open_slot() const { return slots_; }
  unsigned long long* completion_slots() const { return slots_ + 1; }
  void complete(int32_t index, cudaStream_t stream);  // Context::complete_request
  // Before a timed run, outside the window: every slot cleared.
  void clear_async(cudaStream_t stream);
  // As the window opens (before the start event) and right after it closes (after the stop event).
  void open_window_async(cudaStream_t stream);
  void close_window_async(cudaStream_t stream);
  // After the run: waits for `stream` (the window-close stamp follows the stop event on it), then the
  // percentile of this run's latencies in ms; throws naming the first request never marked complete,
  // marked complete before it arrived or after the window closed.
  double percentile_ms(cudaStream_t stream) const;
  double percentile() const { return percentile_; }

 private:
  std::vector<TraceRequest> trace_;
  double percentile_;
  unsigned long long* slots_ = nullptr;  // [0]: window open; [1 + i]: request i complete; [1 + n]: window closed
};

}  // namespace aisp
