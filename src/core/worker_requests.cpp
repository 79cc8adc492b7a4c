#include "core/worker_requests.hpp"

#include "core/strict_fields.hpp"

#include <fmt/format.h>

namespace aisp {
namespace {

// Each request's keys, listed once for both directions: `f` is a StrictFields when a worker parses (each
// key read with its type checked, required or optional) and a FieldWriter when the supervisor sends.
template <class F>
void fields(F& f, SetupRequest& r) {
  f.required("static_seed", r.static_seed);
  f.required("dynamic_seed", r.dynamic_seed);
}

template <class F>
void fields(F& f, CheckRequest& r) {
  f.required("seed", r.seed);
  f.required("dir", r.dir);
  f.optional("tag", r.tag);
  f.optional("audit", r.audit);
  f.optional("dump", r.dump);
}

template <class F>
void fields(F& f, ReplayRequest& r) {
  f.required("seed", r.seed);
  f.required("dir", r.dir);
  f.optional("tag", r.tag);
  f.optional("dump", r.dump);
}

template <class F>
void fields(F& f, WarmupRequest& r) {
  f.optional("mode", r.mode);
  f.optional("count", r.count);
  f.optional("min_time_s", r.min_time_s);
  f.optional("max_time_s", r.max_time_s);
  f.optional("stable_rel", r.stable_rel);
}

template <class F>
void fields(F& f, TimeRequest& r) {
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
}

template <class F>
void fields(F& f, ReferenceRequest& r) {
  f.required("samples", r.samples);
  f.required("sample_seed", r.sample_seed);
  f.required("projection_key", r.projection_key);
}

template <class F>
void fields(F& f, SensitivityRequest& r) {
  f.required("seed", r.seed);
  f.required("alt_seed", r.alt_seed);
}

template <class F>
void fields(F&, MemoryRequest&) {}

template <class F>
void fields(F&, ExitRequest&) {}

// The supervisor sends every field, optional ones too: what the worker runs with is then on the wire.
struct FieldWriter {
  json& out;
  template <class T>
  void required(const char* key, const T& value) {
    out[key] = value;
  }
  template <class T>
  void optional(const char* key, const T& value) {
    out[key] = value;
  }
};

// Rules across fields, checked after the keys are read.
void check_combination(const auto&) {}
void check_combination(const TimeRequest& r) {
  if (r.verify_sample >= 0 && r.dir.empty()) throw ProtocolError("request 'time': 'verify_sample' needs 'dir'");
}

template <class R>
R parse_as(const json& m, const std::string& op) {
  R r;
  StrictFields f(m, "request", op);
  fields(f, r);
  f.finish();
  check_combination(r);
  return r;
}

// The alternative of WorkerRequest whose kOp is `op`, tried in the variant's order.
template <size_t I = 0>
WorkerRequest parse_op(const json& m, const std::string& op) {
  if constexpr (I == std::variant_size_v<WorkerRequest>) {
    throw ProtocolError("unknown request '" + op + "'");
  } else {
    using R = std::variant_alternative_t<I, WorkerRequest>;
    if (op == R::kOp) return parse_as<R>(m, op);
    return parse_op<I + 1>(m, op);
  }
}

}  // namespace

const char* op_name(const WorkerRequest& request) {
  return std::visit([](const auto& r) { return r.kOp; }, request);
}

json to_json(const WorkerRequest& request) {
  json j = json::object();
  std::visit(
      [&j](auto r) {  // a copy: fields() takes the request by reference for the parsing direction
        FieldWriter w{j};
        fields(w, r);
      },
      request);
  j["op"] = op_name(request);
  return j;
}

WorkerRequest parse_request(const json& message) {
  if (!message.is_object() || !message.contains("op") || !message["op"].is_string())
    throw ProtocolError("a request needs a string 'op'");
  return parse_op(message, message["op"].get<std::string>());
}

}  // namespace aisp
