#include "core/worker_requests.hpp"

#include <fmt/format.h>

#include <set>

namespace aisp {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Reads the fields of one request, remembering which keys it consumed: whatever is left over is a key the
// worker does not know (a typo, or a field of another protocol version), which is refused, not ignored.
class Fields {
 public:
  Fields(const json& m, std::string op) : m_(m), op_(std::move(op)) {
    if (!m_.is_object()) throw ProtocolError("a request must be a JSON object");
    seen_ = {"op", "id"};
  }
  template <class T>
  void required(const char* key, T& out) {
    if (!m_.contains(key)) throw ProtocolError(fmt::format("request '{}': missing '{}'", op_, key));
    read(key, out);
  }
  template <class T>
  void optional(const char* key, T& out) {
    if (m_.contains(key)) read(key, out);
  }
  void finish() const {
    for (auto& [key, value] : m_.items())
      if (!seen_.count(key)) throw ProtocolError(fmt::format("request '{}': unknown key '{}'", op_, key));
  }

 private:
  template <class T>
  void read(const char* key, T& out) {
    seen_.insert(key);
    const json& v = m_.at(key);
    bool ok;
    if constexpr (std::is_same_v<T, bool>) ok = v.is_boolean();
    else if constexpr (std::is_same_v<T, std::string>) ok = v.is_string();
    else if constexpr (std::is_floating_point_v<T>) ok = v.is_number();
    else if constexpr (std::is_unsigned_v<T>) ok = v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    else if constexpr (std::is_integral_v<T>) ok = v.is_number_integer();
    else ok = v.is_array();
    if (!ok) throw ProtocolError(fmt::format("request '{}': '{}' has the wrong type ({})", op_, key, v.dump()));
    try {
      out = v.get<T>();
    } catch (const std::exception& e) {
      throw ProtocolError(fmt::format("request '{}': '{}': {}", op_, key, e.what()));
    }
  }
  const json& m_;
  std::string op_;
  std::set<std::string> seen_;
};

template <class R>
R parse_as(const json& m, const std::string& op);

template <>
SetupRequest parse_as(const json& m, const std::string& op) {
  SetupRequest r;
  Fields f(m, op);
  f.required("static_seed", r.static_seed);
  f.required("dynamic_seed", r.dynamic_seed);
  f.finish();
  return r;
}

template <>
CheckRequest parse_as(const json& m, const std::string& op) {
  CheckRequest r;
  Fields f(m, op);
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
  Fields f(m, op);
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
  Fields f(m, op);
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
  Fields f(m, op);
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
  Fields f(m, op);
  f.required("samples", r.samples);
  f.required("sample_seed", r.sample_seed);
  f.required("projection_key", r.projection_key);
  f.finish();
  return r;
}

template <>
SensitivityRequest parse_as(const json& m, const std::string& op) {
  SensitivityRequest r;
  Fields f(m, op);
  f.required("seed", r.seed);
  f.required("alt_seed", r.alt_seed);
  f.finish();
  return r;
}

template <>
MemoryRequest parse_as(const json& m, const std::string& op) {
  Fields(m, op).finish();
  return {};
}

template <>
ExitRequest parse_as(const json& m, const std::string& op) {
  Fields(m, op).finish();
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
