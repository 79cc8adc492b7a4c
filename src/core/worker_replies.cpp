#include "core/worker_replies.hpp"

#include "core/strict_fields.hpp"

namespace aisp {
namespace {

// Every reply carries "ok" (true here: error replies never reach the parsers) and echoes the request id.
StrictFields reply_fields(const json& body, const char* op) { return StrictFields(body, "reply to", op, {"ok", "id"}); }

void require_array(const json& v, const char* op, const char* key) {
  if (!v.is_array()) throw ProtocolError(fmt::format("reply to '{}': '{}' is not an array", op, key));
}

std::vector<WorkerFinding> findings_from(const json& arr, const char* op) {
  require_array(arr, op, "findings");
  std::vector<WorkerFinding> out;
  for (auto& f : arr) {
    WorkerFinding w;
    StrictFields fs(f, "finding in the reply to", op, {});
    fs.required("check", w.check);
    fs.required("detail", w.detail);
    fs.finish();
    out.push_back(std::move(w));
  }
  return out;
}

// The one required field of a reply that carries nothing else.
template <class T>
T only_field(const json& body, const char* op, const char* key) {
  T value;
  StrictFields f = reply_fields(body, op);
  f.required(key, value);
  f.finish();
  return value;
}

}  // namespace

SetupReply parse_setup_reply(const json& body) {
  SetupReply r;
  json findings, audit;
  StrictFields f = reply_fields(body, "setup");
  f.required("buffers", r.buffers);
  f.required("memory", r.memory);
  f.optional("audit_unavailable", audit);
  f.required("findings", findings);
  f.finish();
  require_array(r.buffers, "setup", "buffers");
  if (audit.is_string()) r.audit_unavailable = audit.get<std::string>();
  r.findings = findings_from(findings, "setup");
  return r;
}

CheckReply parse_check_reply(const json& body, const char* op) {
  CheckReply r;
  StrictFields f = reply_fields(body, op);
  f.optional("captured", r.captured);
  if (!r.captured) {
    f.required("reason", r.reason);
    f.finish();
    return r;
  }
  json findings;
  f.required("wall_ms", r.wall_ms);
  f.required("memory", r.memory);
  f.optional("audit", r.audit);
  f.required("inputs_changed", r.inputs_changed);
  f.required("outputs", r.outputs);
  f.required("findings", findings);
  f.finish();
  require_array(r.outputs, op, "outputs");
  r.findings = findings_from(findings, op);
  return r;
}

WarmupReply parse_warmup_reply(const json& body) {
  WarmupReply r;
  StrictFields f = reply_fields(body, "warmup");
  f.required("runs", r.runs);
  f.required("estimate_ms", r.estimate_ms);
  f.required("stable", r.stable);
  f.required("elapsed_ms", r.elapsed_ms);
  f.finish();
  return r;
}

namespace {

TimedSampleReply sample_from(const json& s) {
  TimedSampleReply t;
  StrictFields f(s, "sample in the reply to", "time", {});
  f.required("gpu_ms", t.gpu_ms);
  f.required("wall_ms", t.wall_ms);
  f.required("enqueue_ms", t.enqueue_ms);
  f.required("batch", t.batch);
  f.required("drain_us", t.drain_us);
  f.required("sm_mhz", t.sm_mhz);
  f.required("throttle", t.throttle);
  f.optional("latency_ms", t.latency_ms);
  f.finish();
  return t;
}

VerifiedSampleReply verified_from(const json& v) {
  VerifiedSampleReply r;
  StrictFields f(v, "verified sample in the reply to", "time", {});
  f.required("sample", r.sample);
  f.required("seed", r.seed);
  f.required("outputs", r.outputs);
  f.finish();
  require_array(r.outputs, "time", "verified.outputs");
  return r;
}

}  // namespace

TimeReply parse_time_reply(const json& body) {
  TimeReply r;
  json samples, findings, verified, host_ms;
  StrictFields f = reply_fields(body, "time");
  f.required("samples", samples);
  f.required("blocking", r.blocking);
  f.optional("blocking_note", r.blocking_note);
  f.required("audited", r.audited);
  f.required("projections", r.projections);
  f.required("audit", r.audit);
  f.required("verified", verified);
  f.required("findings", findings);
  f.required("host_ms", host_ms);
  f.required("telemetry", r.telemetry);
  f.finish();
  require_array(samples, "time", "samples");
  for (auto& s : samples) r.samples.push_back(sample_from(s));
  if (!r.projections.is_null()) require_array(r.projections, "time", "projections");
  if (!verified.is_null()) r.verified = verified_from(verified);
  r.findings = findings_from(findings, "time");
  if (!host_ms.is_object()) throw ProtocolError("reply to 'time': 'host_ms' is not an object");
  for (auto& [k, v] : host_ms.items()) {
    if (!v.is_number()) throw ProtocolError("reply to 'time': host_ms." + k + " is not a number");
    r.host_ms[k] = v.get<double>();
  }
  return r;
}

ReferenceReply parse_reference_reply(const json& body) {
  ReferenceReply r{only_field<json>(body, "reference", "projections")};
  require_array(r.projections, "reference", "projections");
  return r;
}

SensitivityReply parse_sensitivity_reply(const json& body) {
  return {only_field<std::map<std::string, bool>>(body, "sensitivity", "changed")};
}

MemoryReply parse_memory_reply(const json& body) { return {only_field<json>(body, "memory", "memory")}; }

}  // namespace aisp
