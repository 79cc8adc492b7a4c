// The timing engine: one sample at a time, in three modes (DESIGN §6).
//  cold  : L2 flushed (2x L2 written then read back on the harness stream, persisting lines reset) outside the window;
//          a blocking kernel holds the stream while the host enqueues event-run()-event, so host
//          enqueue latency never lands between the events (NVBench's method).
//  hot   : `batch` back-to-back run() calls between one event pair, no flush; sample = total / batch.
//  graph : run() captured once into a CUDA graph; each sample replays it (cold: flushed first).
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <string>

#include "aisp/device_info.hpp"
#include "runtime/nvml.hpp"

namespace aisp {

enum class TimingMode { cold, hot, graph };
TimingMode timing_mode_from_name(const std::string& s);
const char* timing_mode_name(TimingMode m);

// Optional callbacks the validity machinery hangs on one sample. `phase` is told which part of the sample
// the harness thread is in (the CUPTI audit attributes API calls by it); `window_opening` enqueues the last
// harness work before the start event and `window_closed` the first after the stop event, so the audit
// sees both edges of the window as activity records.
struct SampleHooks {
  std::function<void(int phase)> phase;  // an AuditPhase value
  std::function<void()> window_opening;
  std::function<void()> window_closed;
};

struct TimingSample {
  double gpu_ms = 0;   // CUDA events on the harness stream, per run()
  double wall_ms = 0;  // host clock from before the enqueue to after the stream drained, per run()
  double enqueue_ms = 0;  // host time spent inside run() (enqueue cost)
  int batch = 1;
  double drain_us = -1;  // device-wide sync after the harness stream finished (K6); -1: not measured
  NvmlSample nvml;     // SM clock and clocks-event reasons, read right after the sample drained
  double flush_ms = 0, nvml_ms = 0;  // host time of the L2 flush (incl. its sync) and of the NVML reads
};

class Timer {
 public:
  Timer(const DeviceInfo& device, cudaStream_t stream);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  TimingSample cold(const std::function<void()>& run, const SampleHooks* hooks = nullptr);
  TimingSample hot(const std::function<void()>& run, int batch, const SampleHooks* hooks = nullptr);
  TimingSample graph(cudaGraphExec_t exec, bool flush, const SampleHooks* hooks = nullptr);
  // Measure the drain residual after every sample (K6); off only for `--validity off` overhead runs.
  void set_measure_drain(bool on) { measure_drain_ = on; }
  void flush_l2();

  // The blocking kernel is dropped (for the rest of this Timer's life) if run() waits on the blocked
  // stream itself, e.g. a host sync inside run(); the reason is reported with the results.
  bool blocking_enabled() const { return blocking_; }
  const std::string& blocking_disabled_reason() const { return blocking_reason_; }

 private:
  void block_stream();
  void measure_drain(TimingSample& s);
  bool release_stream();  // false if the blocking kernel timed out before release

  DeviceInfo device_;
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  unsigned flush_value_ = 0;
  volatile int* release_flag_ = nullptr;  // host-mapped
  volatile int* timed_out_flag_ = nullptr;
  bool blocking_ = true;
  bool measure_drain_ = true;
  std::string blocking_reason_;
};

}  // namespace aisp
