#include "runtime/callback_benchmark.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include "core/checks.hpp"
#include "core/schema.hpp"

namespace aisp {
namespace {

thread_local std::string callback_error;  // aisp_set_error(): the failing callback's reason
thread_local std::string host_error;      // aisp_last_error(): the last failed aisp_host_* call
// aisp_host_finding(): reported by the host, not yet in a reply. Identical reports are kept once (a guard
// that sees the same changed flag after every call reports one finding, not thousands).
thread_local std::vector<AuditFinding> host_findings;

Context& context_of(aisp_host* host) { return *reinterpret_cast<Context*>(host); }
aisp_host* host_of(Context& ctx) { return reinterpret_cast<aisp_host*>(&ctx); }

// Every declaration is required: a missing or misspelled key is an error, not a default.
const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw std::invalid_argument(fmt::format("declarations: '{}' is missing", key));
  return j.at(key);
}

DType parse_dtype(const char* name) {
  auto t = dtype_from_name(name ? name : "");
  if (!t) throw std::invalid_argument(fmt::format("unknown dtype '{}'", name ? name : ""));
  return *t;
}

Shape parse_shape(int32_t rank, const int64_t* dims) {
  if (rank < 0 || rank > AISP_MAX_RANK) throw std::invalid_argument(fmt::format("rank {} is out of range", rank));
  std::vector<int64_t> d(dims, dims + rank);
  for (int64_t x : d)
    if (x < 0) throw std::invalid_argument("negative dimension");
  return Shape(std::move(d));
}

Fill parse_fill(const char* kind, double a, double b) {
  std::string k = kind ? kind : "";
  if (k == "uniform") return Fill::uniform(a, b);
  if (k == "normal") return Fill::normal(a, b);
  if (k == "int_range") return Fill::int_range(static_cast<int64_t>(a), static_cast<int64_t>(b));
  throw std::invalid_argument(fmt::format("unknown fill '{}' (uniform, normal, int_range)", k));
}

Role parse_role(const char* role) {
  std::string r = role ? role : "";
  if (r == "dynamic") return Role::dynamic;
  if (r == "static") return Role::static_;
  throw std::invalid_argument(fmt::format("unknown role '{}' (dynamic, static)", r));
}

void describe(const Buffer& b, aisp_buffer_info* out) {
  std::memset(out, 0, sizeof *out);
  out->data = b.data;
  std::string name(dtype_name(b.dtype));
  std::strncpy(out->dtype, name.c_str(), sizeof out->dtype - 1);
  out->rank = static_cast<int32_t>(b.shape.rank());
  for (size_t i = 0; i < b.shape.rank() && i < AISP_MAX_RANK; ++i) out->dims[i] = b.shape.dims[i];
  out->bytes = b.bytes();
}

// Runs one host call, turning any exception into a nonzero return and aisp_last_error().
template <class F>
int guarded(F&& f) {
  try {
    host_error.clear();
    f();
    return 0;
  } catch (const std::exception& e) {
    host_error = e.what();
  } catch (...) {
    host_error = "unknown error";
  }
  return 1;
}

}  // namespace

std::string take_callback_error(const std::string& fallback) {
  std::string m = callback_error.empty() ? fallback : callback_error;
  callback_error.clear();
  return m;
}

void set_callback_error(const std::string& message) { callback_error = message; }

std::vector<AuditFinding> take_host_findings() {
  std::vector<AuditFinding> out;
  out.swap(host_findings);
  return out;
}

CallbackBenchmark::CallbackBenchmark(const aisp_benchmark_callbacks& cb) : callbacks_(cb) {
  if (cb.api_version != AISP_C_API_VERSION)
    throw std::invalid_argument(fmt::format("callback table is C API v{}, this runtime speaks v{}", cb.api_version,
                                            AISP_C_API_VERSION));
  if (!cb.setup || !cb.run) throw std::invalid_argument("callback table lacks setup or run");
  if (!cb.declarations_json) throw std::invalid_argument("callback table lacks declarations");
  nlohmann::json d = nlohmann::json::parse(cb.declarations_json);  // throws on malformed text
  try {
    workload_ = workload_from_json(field(d, "workload"));
    tolerance_ = tolerance_from_json(field(d, "tolerance"));
    goal_ = goal_from_name(field(d, "goal").get<std::string>());
    requirements_ = requirements_from_json(field(d, "requirements"));
    min_speedup_ = field(d, "min_speedup").get<double>();
    technique_ = field(d, "technique").get<std::string>();
    informational_ = field(d, "informational").get<std::string>();
    latency_percentile_ = field(d, "latency_percentile").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("declarations: ") + e.what());
  }
}

void CallbackBenchmark::teardown(Context& ctx) {
  if (callbacks_.teardown) call(callbacks_.teardown, ctx, "teardown");
}

void CallbackBenchmark::call(Callback fn, Context& ctx, const char* what) {
  callback_error.clear();
  if (fn(callbacks_.user, host_of(ctx)) != 0)
    throw std::runtime_error(take_callback_error(fmt::format("{}() failed without a message", what)));
}

}  // namespace aisp

extern "C" {

int aisp_host_input(aisp_host* host, const char* name, const char* dtype, int32_t rank, const int64_t* dims,
                    const char* fill_kind, double a, double b, const char* role, aisp_buffer_info* out) {
  return aisp::guarded([&] {
    auto buffer = aisp::context_of(host).input(name, aisp::parse_dtype(dtype), aisp::parse_shape(rank, dims),
                                               aisp::parse_fill(fill_kind, a, b), aisp::parse_role(role));
    aisp::describe(buffer, out);
  });
}

int aisp_host_output(aisp_host* host, const char* name, const char* dtype, int32_t rank, const int64_t* dims,
                     aisp_buffer_info* out) {
  return aisp::guarded([&] {
    aisp::describe(aisp::context_of(host).output(name, aisp::parse_dtype(dtype), aisp::parse_shape(rank, dims)), out);
  });
}

int aisp_host_scratch(aisp_host* host, const char* name, uint64_t bytes, void** out) {
  return aisp::guarded([&] { *out = aisp::context_of(host).scratch(name, bytes); });
}

int aisp_host_buffer(aisp_host* host, const char* name, aisp_buffer_info* out) {
  return aisp::guarded([&] { aisp::describe(aisp::context_of(host).buffer(name), out); });
}

int aisp_host_param(aisp_host* host, const char* name, int64_t* out) {
  return aisp::guarded([&] { *out = aisp::context_of(host).param(name); });
}

int aisp_host_finding(aisp_host* host, const char* check, const char* detail) {
  return aisp::guarded([&] {
    if (!host) throw std::invalid_argument("aisp_host_finding: no host (call it from a callback)");
    std::string id = check ? check : "";
    if (!aisp::find_check(id)) throw std::invalid_argument(fmt::format("unknown check id '{}'", id));
    aisp::AuditFinding f{id, detail ? detail : ""};
    for (auto& seen : aisp::host_findings)
      if (seen.check == f.check && seen.detail == f.detail) return;
    aisp::host_findings.push_back(std::move(f));
  });
}

void* aisp_host_stream(aisp_host* host) { return static_cast<void*>(aisp::context_of(host).stream()); }

const char* aisp_last_error(void) { return aisp::host_error.c_str(); }

void aisp_set_error(const char* message) { aisp::set_callback_error(message ? message : ""); }

}  // extern "C"
