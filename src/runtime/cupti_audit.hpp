// CUPTI recorder for the validity audit (K7/K8/K9/K13; logic in core/audit.hpp).
//
// Subscribed once per worker, before the plugin is loaded, with every domain switched off; an audit
// turns runtime+driver API callbacks and kernel/memcpy/memset activity on for one block of samples and
// off again, so un-audited samples pay nothing. The harness thread tags its own work with a phase
// (prologue, run, epilogue) through a thread-local the callback reads; calls from any other thread
// arrive untagged and are attributed to that thread.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "core/audit.hpp"

namespace aisp {

class CuptiAudit {
 public:
  static CuptiAudit& instance();

  // Subscribes and registers activity buffers; returns false (with `why`) if CUPTI is unusable, in
  // which case audits report themselves as not run instead of passing.
  bool init(std::string* why);
  bool available() const { return available_; }
  const std::string& unavailable_reason() const { return why_; }

  // Starts a fresh trace (device-wide idle first, so nothing earlier bleeds in). `stream` is the harness stream.
  void start(cudaStream_t harness_stream);
  // Stops recording, waits (at most drain_timeout_s) for the device to go idle, flushes every record and
  // returns the trace; sample times are added by the caller.
  AuditTrace stop(double drain_timeout_s);
  bool recording() const { return recording_; }

  // Phase of the calling (harness) thread; the callback stamps it on every API call.
  static void set_phase(AuditPhase phase, int sample);

 private:
  CuptiAudit() = default;
  bool available_ = false, initialized_ = false, recording_ = false;
  uint64_t started_ns_ = 0;
  std::string why_;
};

// Harness code that runs inside run() on the benchmark's behalf (creating the cuBLAS handle on first use)
// is the harness's, not the benchmark's: tag it so, then restore the caller's tag.
class HarnessWorkScope {
 public:
  HarnessWorkScope();
  ~HarnessWorkScope();
  HarnessWorkScope(const HarnessWorkScope&) = delete;
  HarnessWorkScope& operator=(const HarnessWorkScope&) = delete;

 private:
  AuditPhase saved_phase_;
  int saved_sample_;
};

// RAII phase tag for the harness thread.
class AuditPhaseScope {
 public:
  AuditPhaseScope(AuditPhase phase, int sample) { CuptiAudit::set_phase(phase, sample); }
  ~AuditPhaseScope() { CuptiAudit::set_phase(AuditPhase::harness, -1); }
  AuditPhaseScope(const AuditPhaseScope&) = delete;
  AuditPhaseScope& operator=(const AuditPhaseScope&) = delete;
};

}  // namespace aisp
