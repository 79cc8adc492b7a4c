#include "runtime/cupti_audit.hpp"

#include <cupti.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#include "aisp/check.hpp"
#include "runtime/process_state.hpp"

namespace aisp {
namespace {

constexpr size_t kActivityBufferBytes = 8u << 20;

struct RawCall {
  uint32_t correlation;
  const char* name;  // CUPTI's function names are global constants
  AuditPhase phase;
  int sample;
  uint64_t tid;
};

struct Recorder {
  std::mutex mu;
  std::vector<RawCall> calls;
  std::vector<AuditActivity> activities;
  uint64_t harness_tid = 0;
  CUpti_SubscriberHandle subscriber = nullptr;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

struct PhaseTag {
  AuditPhase phase = AuditPhase::harness;
  int sample = -1;
};
thread_local PhaseTag t_phase;

uint64_t this_tid() { return static_cast<uint64_t>(syscall(SYS_gettid)); }

void CUPTIAPI on_api(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite != CUPTI_API_ENTER) return;
  Recorder& r = recorder();
  RawCall c{cb->correlationId, cb->functionName, t_phase.phase, t_phase.sample, this_tid()};
  std::lock_guard lock(r.mu);
  r.calls.push_back(c);
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
  *size = *buffer ? kActivityBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<AuditActivity> parsed;
  CUpti_Activity* rec = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    AuditActivity a;
    switch (rec->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(rec);
        a = {AuditActivity::Kind::kernel, k->correlationId, k->start, k->end, k->deviceId, k->streamId,
             k->name ? k->name : "?", k->pAccessPolicyWindow != nullptr};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(rec);
        a = {AuditActivity::Kind::memcpy, m->correlationId, m->start, m->end, m->deviceId, m->streamId, "memcpy", false};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(rec);
        a = {AuditActivity::Kind::memset, m->correlationId, m->start, m->end, m->deviceId, m->streamId, "memset", false};
        break;
      }
      default:
        continue;
    }
    parsed.push_back(std::move(a));
  }
  std::free(buffer);
  Recorder& r = recorder();
  std::lock_guard lock(r.mu);
  r.activities.insert(r.activities.end(), parsed.begin(), parsed.end());
}

const char* cupti_error(CUptiResult res) {
  const char* s = nullptr;
  cuptiGetResultString(res, &s);
  return s ? s : "unknown CUPTI error";
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

CuptiAudit& CuptiAudit::instance() {
  static CuptiAudit a;
  return a;
}

void CuptiAudit::set_phase(AuditPhase phase, int sample) { t_phase = {phase, sample}; }

HarnessWorkScope::HarnessWorkScope() : saved_phase_(t_phase.phase), saved_sample_(t_phase.sample) {
  t_phase = {AuditPhase::harness, -1};
}
HarnessWorkScope::~HarnessWorkScope() { t_phase = {saved_phase_, saved_sample_}; }

bool CuptiAudit::init(std::string* why) {
  if (initialized_) {
    if (why) *why = why_;
    return available_;
  }
  initialized_ = true;
  Recorder& r = recorder();
  r.harness_tid = this_tid();
  CUptiResult res = cuptiSubscribe(&r.subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_api), nullptr);
  if (res == CUPTI_SUCCESS) res = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (res != CUPTI_SUCCESS) {
    why_ = std::string("CUPTI unavailable: ") + cupti_error(res);
    if (why) *why = why_;
    return false;
  }
  available_ = true;
  // One throw-away recording now, before any benchmark code: CUPTI starts its own helper threads on first
  // use, and those must already exist when K16 counts threads around run().
  void* scratch = nullptr;
  if (cudaMalloc(&scratch, 64) == cudaSuccess) {
    for (auto k : kKinds) cuptiActivityEnable(k);
    cudaMemsetAsync(scratch, 0, 64);
    cudaDeviceSynchronize();
    for (auto k : kKinds) cuptiActivityDisable(k);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cudaFree(scratch);
    std::lock_guard lock(r.mu);
    r.activities.clear();
  }
  cudaGetLastError();
  return true;
}

void CuptiAudit::start(cudaStream_t) {
  if (!available_ || recording_) return;
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  cuptiGetTimestamp(&started_ns_);
  Recorder& r = recorder();
  {
    std::lock_guard lock(r.mu);
    r.calls.clear();
    r.activities.clear();
  }
  for (auto k : kKinds) cuptiActivityEnable(k);
  cuptiEnableDomain(1, r.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableDomain(1, r.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  recording_ = true;
}

AuditTrace CuptiAudit::stop(double drain_timeout_s) {
  AuditTrace t;
  if (!recording_) return t;
  Recorder& r = recorder();
  // Callbacks off first: the bounded drain below syncs from a helper thread, which must not be recorded.
  cuptiEnableDomain(0, r.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  cuptiEnableDomain(0, r.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  // Records of still-running work arrive only when it completes; a kernel that never ends is K6's finding.
  t.quiesced = device_idle_within(drain_timeout_s);
  for (auto k : kKinds) cuptiActivityDisable(k);
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  recording_ = false;
  t.audit_started_ns = started_ns_;
  std::lock_guard lock(r.mu);
  t.calls.reserve(r.calls.size());
  for (auto& c : r.calls)
    t.calls.push_back({c.correlation, c.name ? c.name : "?", c.phase, c.sample, c.tid == r.harness_tid, c.tid});
  t.activities = std::move(r.activities);
  r.activities.clear();
  r.calls.clear();
  // The harness stream and device are whatever the harness's own tagged work ran on.
  std::map<uint32_t, AuditPhase> phase_of;
  for (auto& c : t.calls)
    if (c.harness_thread && c.phase == AuditPhase::prologue) phase_of.emplace(c.correlation, c.phase);
  for (auto& a : t.activities)
    if (phase_of.contains(a.correlation)) {
      t.harness_stream = a.stream;
      t.device = a.device;
      break;
    }
  return t;
}

}  // namespace aisp
