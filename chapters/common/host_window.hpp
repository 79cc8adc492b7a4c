// Timing rule for pairs whose cost is partly host-side issue work (launch overhead, cudaMalloc/cudaFree,
// host round trips, graph instantiation). Shared by ch11 and ch12.
//
// In cold mode the harness holds its stream with a blocking kernel while run() enqueues, so the host's
// enqueue time is invisible to the GPU-side events. That is right for GPU-bound pairs and wrong for these:
// the thing being optimized *is* the host's part. Both variants of such a pair therefore start run() with
// a stream synchronize on the harness stream (ch02's open_host_window): the harness sees run() wait on its
// held stream, drops the blocking kernel for that variant (once, ~1 s) and from then on the start event
// fires as soon as it is recorded, so every host cycle of run() lies inside the timed window. Both
// variants of a pair do it, so they are timed under the same rule.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "aisp/check.hpp"

namespace host_window {

inline bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  AISP_CUDA_CHECK(cudaStreamIsCapturing(s, &status));
  return status != cudaStreamCaptureStatusNone;
}

// For a run() that is pure stream work: when the harness captures run() into a graph (the capture-replay
// check, K10) there is no window to open and a synchronize would break the capture, so it is skipped.
inline void open(cudaStream_t s) {
  if (!capturing(s)) AISP_CUDA_CHECK(cudaStreamSynchronize(s));
}

// For a run() that cannot be captured (it waits on the host, allocates, or instantiates graphs): throws
// before doing anything when captured, so the harness records K10 as not applicable instead of a
// half-captured run.
inline void open_eager(cudaStream_t s, const char* pair) {
  if (capturing(s))
    throw std::runtime_error(std::string(pair) + ": run() waits on the host between GPU steps; it cannot be "
                             "captured into a CUDA graph");
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace host_window
