// The CUPTI audit's verdict logic (K7/K8/K9/K13), CUDA-free so CI can test it on synthetic traces.
//
// The worker records, while an audit is on, every CUDA API call (which thread, and which phase of a
// sample the harness thread was in) and every kernel/memcpy/memset the GPU executed. Each sample has
// three harness phases around run(): the prologue (L2 flush, blocking kernel), run() itself, and the
// epilogue marker (a fingerprint kernel enqueued on the harness stream right after the stop event).
// The timed window of sample k is therefore, in CUPTI's clock:
//     opens  = the end of the last prologue activity of k   (the harness stream is released)
//     closes = the start of the first epilogue activity of k (the stop event has passed)
// Honest work - on the harness stream, or on a side stream forked from and joined back to it - lies
// inside [opens, closes]. Anything else is work the events did not time.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace aisp {

enum class AuditPhase : int { harness = 0, prologue = 1, run = 2, epilogue = 3 };

struct AuditApiCall {
  uint32_t correlation = 0;
  std::string name;  // e.g. "cudaLaunchKernel", "cuStreamCreate"
  AuditPhase phase = AuditPhase::harness;
  int sample = -1;   // the sample the harness thread was in (-1: none)
  bool harness_thread = true;
  uint64_t tid = 0;
};

struct AuditActivity {
  enum class Kind { kernel, memcpy, memset } kind = Kind::kernel;
  uint32_t correlation = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint32_t device = 0, stream = 0;
  std::string name;  // kernel name; "memcpy"/"memset" otherwise
  bool access_policy_window = false;  // the kernel ran under an L2 access-policy window
};

struct AuditSampleTime {
  int sample = 0;
  double event_ms = 0;  // what the CUDA events reported for this sample (per run() x batch)
  int batch = 1;
};

struct AuditTrace {
  std::vector<AuditApiCall> calls;
  std::vector<AuditActivity> activities;
  std::vector<AuditSampleTime> samples;  // empty for verification runs: no window rules then
  uint64_t audit_started_ns = 0;         // CUPTI clock when recording was switched on
  bool quiesced = true;                  // the device went idle when the audit stopped (else K6)
  uint32_t device = 0;                   // the declared device (CUPTI device id)
  uint32_t harness_stream = 0;           // CUPTI stream id of the harness stream
  std::set<std::string> verified_kernels;  // kernels seen in verification runs (empty: rule off)
};

struct AuditFinding {
  std::string check;   // "K8", "K9", "K7", "K13"
  std::string detail;  // one line, names the kernel / API / sample
};

struct AuditSummary {
  std::vector<AuditFinding> findings;
  std::set<std::string> kernels;  // kernel names attributed to run()
  int64_t run_activities = 0, harness_activities = 0, side_stream_activities = 0;
  bool markers_seen = true;  // the harness's own prologue/epilogue records arrived (audit not blinded)
};

// Slack for comparing CUPTI timestamps of different engines (copy vs compute) with the window edges.
inline constexpr uint64_t kAuditSlackNs = 2000;

AuditSummary analyze_audit(const AuditTrace& trace);

// API calls that run() must not make: they create concurrency the harness cannot see, or change
// process-wide state the next sample (or the other variant) inherits. Returns the K id, or "" if fine.
std::string forbidden_in_run(const std::string& api_name);

}  // namespace aisp
