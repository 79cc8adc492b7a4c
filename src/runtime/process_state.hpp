// Process and device state a benchmark could change to make itself (or the next variant) look faster,
// captured before and after run() (K13 L2 hygiene, K16 state diff), plus a device-wide sync with a time
// limit, so work left running forever is a finding instead of a hang (K6).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace aisp {

struct ProcessState {
  int threads = 0;  // entries in /proc/self/task
  int device = -1;
  size_t stack_bytes = 0, printf_fifo_bytes = 0, malloc_heap_bytes = 0, persisting_l2_bytes = 0;
  size_t access_policy_bytes = 0;  // the harness stream's L2 access-policy window
  int cublas_math_mode = -1;       // -1: the benchmark never asked for the cuBLAS handle
};

ProcessState capture_state(cudaStream_t harness_stream, cublasHandle_t cublas_or_null);

struct StateChange {
  std::string check;  // "K13" or "K16"
  std::string detail;
};

// What differs between two snapshots, worded for the report ("run() switched the cuBLAS handle from ...");
// `actor` names what ran in between: "run()", "loading the plugin (static constructors)", "setup()".
std::vector<StateChange> state_changes(const ProcessState& before, const ProcessState& after,
                                       const std::string& actor = "run()");

// cudaDeviceSynchronize, but giving up after `seconds` (the sync keeps waiting in a detached thread; the
// caller should then report and end the worker). True when the device went idle in time.
bool device_idle_within(double seconds);

}  // namespace aisp
