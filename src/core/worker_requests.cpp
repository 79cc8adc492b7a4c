#include "core/worker_requests.hpp"

#include "core/strict_fields.hpp"

#include <fmt/format.h>

namespace aisp {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

template <class R>
R parse_as(const json& m, const std::string& op);

template <>
SetupRequest parse_as(const json& m, const std::string& op) {
  SetupRequest r;
  StrictFields f(m, "request", op);
  f.required("static_seed", r.static_seed);
  f.required("dynamic_seed", r.dynamic_seed);
  f.finish();
  return r;
}

template <>
CheckRequest parse_as(const json& m, const std::string& op) {
  CheckRequest r;
  StrictFields f(m, "request", op);
  f.required("seed", r.seed);
  f.required("dir", r.dir);
  f.optional("tag", r.tag);
  f.optional("audit", r.audit);
  f.optional("dump", r.dump);
  f.finish();
  return r;
}

template <>
ReplayRequest parse_as(const json& m, const std::string& op) {
  ReplayRequest r;
  StrictFields f(m, "request", op);
  f.required("seed", r.seed);
  f.required("dir", r.dir);
  f.optional("tag", r.tag);
  f.optional("dump", r.dump);
  f.finish();
  return r;
}

template <>
WarmupRequest parse_as(const json& m, const std::string& op) {
  WarmupRequest r;
  StrictFields f(m, "request", op);
  f.optional("mode", r.mode);
  f.optional("count", r.count);
  f.optional("min_time_s", r.min_time_s);
  f.optional("max_time_s", r.max_time_s);
  f.optional("stable_rel", r.stable_rel);
  f.finish();
  return r;
}

template <>
TimeRequest parse_as(const json& m, const std::string& op) {
  TimeRequest r;
  StrictFields f(m, "request", op);
  f.optional("mode", r.mode);
  f.required("samples", r.samples);
  f.optional("batch", r.batch);
  f.required("sample_seed", r.sample_seed);
  f.required("first_sample", r.first_sample);
  f.required("projection_key", r.projection_key);
  f.optional("audit", r.audit);
  f.optional("verify_sample", r.verify_sample);
  f.optional("dir", r.dir);
  f.optional("tag", r.tag);
  f.optional("dump", r.dump);
  f.finish();
  if (r.verify_sample >= 0 && r.dir.empty()) throw ProtocolError("request 'time': 'verify_sample' needs 'dir'");
  return r;
}

template <>
ReferenceRequest parse_as(const json& m, const std::string& op) {
  ReferenceRequest r;
  StrictFields f(m, "request", op);
  f.required("samples", r.samples);
  f.required("sample_seed", r.sample_seed);
  f.required("projection_key", r.projection_key);
  f.finish();
  return r;
}

template <>
SensitivityRequest parse_as(const json& m, const std::string& op) {
  SensitivityRequest r;
  StrictFields f(m, "request", op);
  f.required("seed", r.seed);
  f.required("alt_seed", r.alt_seed);
  f.finish();
  return r;
}

template <>
MemoryRequest parse_as(const json& m, const std::string& op) {
  StrictFields(m, "request", op).finish();
  return {};
}

template <>
ExitRequest parse_as(const json& m, const std::string& op) {
  StrictFields(m, "request", op).finish();
  return {};
}

}  // namespace

const char* op_name(const WorkerRequest& request) {
  return std::visit(Overloaded{[](const SetupRequest&) { return "setup"; }, [](const CheckRequest&) { return "check"; },
                               [](const ReplayRequest&) { return "replay"; }, [](const WarmupRequest&) { return "warmup"; },
                               [](const TimeRequest&) { return "time"; }, [](const ReferenceRequest&) { return "reference"; },
                               [](const SensitivityRequest&) { return "sensitivity"; },
                               [](const MemoryRequest&) { return "memory"; }, [](const ExitRequest&) { return "exit"; }},
                    request);
}

json to_json(const WorkerRequest& request) {
  json j = std::visit(
      Overloaded{
          [](const SetupRequest& r) { return json{{"static_seed", r.static_seed}, {"dynamic_seed", r.dynamic_seed}}; },
          [](const CheckRequest& r) {
            return json{{"seed", r.seed}, {"dir", r.dir}, {"tag", r.tag}, {"audit", r.audit}, {"dump", r.dump}};
          },
          [](const ReplayRequest& r) { return json{{"seed", r.seed}, {"dir", r.dir}, {"tag", r.tag}, {"dump", r.dump}}; },
          [](const WarmupRequest& r) {
            return json{{"mode", r.mode}, {"count", r.count}, {"min_time_s", r.min_time_s},
                        {"max_time_s", r.max_time_s}, {"stable_rel", r.stable_rel}};
          },
          [](const TimeRequest& r) {
            return json{{"mode", r.mode}, {"samples", r.samples}, {"batch", r.batch}, {"sample_seed", r.sample_seed},
                        {"first_sample", r.first_sample}, {"projection_key", r.projection_key}, {"audit", r.audit},
                        {"verify_sample", r.verify_sample}, {"dir", r.dir}, {"tag", r.tag}, {"dump", r.dump}};
          },
          [](const ReferenceRequest& r) {
            return json{{"samples", r.samples}, {"sample_seed", r.sample_seed}, {"projection_key", r.projection_key}};
          },
          [](const SensitivityRequest& r) { return json{{"seed", r.seed}, {"alt_seed", r.alt_seed}}; },
          [](const MemoryRequest&) { return json::object(); }, [](const ExitRequest&) { return json::object(); }},
      request);
  j["op"] = op_name(request);
  return j;
}

WorkerRequest parse_request(const json& message) {
  if (!message.is_object() || !message.contains("op") || !message["op"].is_string())
    throw ProtocolError("a request needs a string 'op'");
  std::string op = message["op"];
  if (op == "setup") return parse_as<SetupRequest>(message, op);
  if (op == "check") return parse_as<CheckRequest>(message, op);
  if (op == "replay") return parse_as<ReplayRequest>(message, op);
  if (op == "warmup") return parse_as<WarmupRequest>(message, op);
  if (op == "time") return parse_as<TimeRequest>(message, op);
  if (op == "reference") return parse_as<ReferenceRequest>(message, op);
  if (op == "sensitivity") return parse_as<SensitivityRequest>(message, op);
  if (op == "memory") return parse_as<MemoryRequest>(message, op);
  if (op == "exit") return parse_as<ExitRequest>(message, op);
  throw ProtocolError("unknown request '" + op + "'");
}

}  // namespace aisp
