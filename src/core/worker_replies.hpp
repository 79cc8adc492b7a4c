// The worker -> supervisor replies as types, parsed strictly (core/strict_fields.hpp): a reply missing a
// field the supervisor judges with, or carrying one it does not know, is a protocol error that fails the
// variant, never a default (a missing "findings" would otherwise read as "nothing found"). Nested
// documents the supervisor hands on unchanged (buffers, outputs, memory, audit summaries, projections)
// stay JSON. Error replies ({"ok": false, kind, error, check}) are the transport's (runner/variant_worker.hpp).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/worker_requests.hpp"

namespace aisp {

struct WorkerFinding {
  std::string check, detail;
};

struct SetupReply {
  json buffers;  // [{name, kind, dtype, shape, role, bytes, ipc?}]
  json memory;
  std::optional<std::string> audit_unavailable;
  std::vector<WorkerFinding> findings;
};

// check and replay. A replay that could not be captured has captured = false and only `reason`.
struct CheckReply {
  bool captured = true;
  std::string reason;
  double wall_ms = 0;
  json memory, audit;
  std::vector<std::string> inputs_changed;
  json outputs;  // [{name, dtype, shape, file?, unwritten?}]
  std::vector<WorkerFinding> findings;
};

struct WarmupReply {
  int runs = 0;
  double estimate_ms = 0, elapsed_ms = 0;
  bool stable = false;
};

struct TimedSampleReply {
  double gpu_ms = 0, wall_ms = 0, enqueue_ms = 0, drain_us = -1, sm_mhz = 0;
  int batch = 1;
  uint64_t throttle = 0;
  double latency_ms = -1;  // Goal::latency: the run's request-latency percentile; < 0: none
};

struct VerifiedSampleReply {
  int sample = 0;
  uint64_t seed = 0;
  json outputs;
};

struct TimeReply {
  std::vector<TimedSampleReply> samples;
  bool blocking = true, audited = false;
  std::string blocking_note;
  json projections;  // null when the block was not projected
  json audit;
  std::optional<VerifiedSampleReply> verified;
  std::vector<WorkerFinding> findings;
  std::map<std::string, double> host_ms;
  json telemetry;
};

struct ReferenceReply {
  json projections;
};

struct SensitivityReply {
  std::map<std::string, bool> changed;
};

struct MemoryReply {
  json memory;
};

// Each throws ProtocolError naming the op and the field at fault.
SetupReply parse_setup_reply(const json& body);
CheckReply parse_check_reply(const json& body, const char* op = "check");
WarmupReply parse_warmup_reply(const json& body);
TimeReply parse_time_reply(const json& body);
ReferenceReply parse_reference_reply(const json& body);
SensitivityReply parse_sensitivity_reply(const json& body);
MemoryReply parse_memory_reply(const json& body);

}  // namespace aisp
