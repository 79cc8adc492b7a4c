// CPU tests of the C ABI's benchmark adapter (runtime/callback_benchmark.hpp): declarations parsed
// strictly, setup/run/teardown forwarded to the callbacks, the aisp_host_* calls reaching the Context,
// and failures on either side turned into messages. A stand-in Context with host memory replaces the
// worker's (no GPU needed).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "runtime/c_api.h"
#include "runtime/callback_benchmark.hpp"

namespace {

using aisp::Buffer;
using aisp::CallbackBenchmark;

struct FakeContext final : aisp::Context {
  std::map<std::string, Buffer> buffers;
  std::map<std::string, std::vector<char>> memory;
  std::map<std::string, aisp::Fill> fills;
  std::map<std::string, aisp::Role> roles;
  std::vector<std::string> outputs;
  cudaStream_t stream_handle = reinterpret_cast<cudaStream_t>(0x1234);

  cudaStream_t stream() override { return stream_handle; }
  Buffer make(const std::string& name, aisp::DType dtype, aisp::Shape shape) {
    if (buffers.count(name)) throw std::invalid_argument("buffer '" + name + "' declared twice");
    Buffer b{nullptr, dtype, shape, name};
    memory[name].resize(b.bytes());
    b.data = memory[name].data();
    return buffers[name] = b;
  }
  Buffer input(const std::string& name, aisp::DType dtype, aisp::Shape shape, aisp::Fill fill, aisp::Role role) override {
    fills[name] = fill;
    roles[name] = role;
    return make(name, dtype, shape);
  }
  Buffer output(const std::string& name, aisp::DType dtype, aisp::Shape shape) override {
    Buffer b = make(name, dtype, shape);
    outputs.push_back(name);
    return b;
  }
  void* scratch(const std::string& name, size_t bytes) override { return make(name, aisp::DType::u8, {int64_t(bytes)}).data; }
  Buffer buffer(const std::string& name) override {
    auto it = buffers.find(name);
    if (it == buffers.end()) throw std::invalid_argument("unknown buffer '" + name + "'");
    return it->second;
  }
  cublasHandle_t cublas() override { return nullptr; }
  const aisp::DeviceInfo& device() const override { return device_; }
  int64_t param(const std::string& name) const override {
    if (name != "n") throw std::invalid_argument("unknown param '" + name + "'");
    return 6;
  }
  // Request traces (latency goal) are not part of the Python benchmark shape this adapter serves.
  aisp::RequestTrace request_trace(const std::string&, const aisp::TraceSpec&) override {
    throw std::logic_error("no request traces here");
  }
  void complete_request(int32_t, cudaStream_t) override { throw std::logic_error("no request traces here"); }
  aisp::DeviceInfo device_;
};

const char* kDeclarations = R"({"workload": {"params": {"n": 6}, "precision": "bf16", "bytes": 36, "flops": 6,
  "items": 6, "item_unit": "elements"}, "tolerance": {"rtol": 0.01, "atol": 0.001, "justification": "bf16 sums"},
  "goal": "memory", "requirements": {"min_compute_capability": 90, "gpus": 1, "min_memory_bytes": 1024},
  "min_speedup": 1.2, "technique": "fused in torch", "informational": "", "latency_percentile": 95})";

// What the callbacks saw, and what they should do.
struct Script {
  std::vector<std::string> calls;
  bool fail_run = false;
  aisp_buffer_info x{}, out{};
  int64_t n = 0;
  void* stream = nullptr;
  int host_rc = 0;
  std::string host_error;
};

int setup_cb(void* user, aisp_host* host) {
  auto* s = static_cast<Script*>(user);
  s->calls.push_back("setup");
  aisp_host_param(host, "n", &s->n);
  int64_t dims[] = {2, 3};
  aisp_host_input(host, "x", "bf16", 2, dims, "normal", 0.0, 2.0, "static", &s->x);
  aisp_host_output(host, "out", "f32", 1, &s->n, &s->out);
  s->stream = aisp_host_stream(host);
  // A bad declaration comes back as a nonzero return with the Context's message.
  s->host_rc = aisp_host_output(host, "out", "f32", 1, &s->n, &s->out);
  s->host_error = aisp_last_error();
  return 0;
}

int run_cb(void* user, aisp_host* host) {
  auto* s = static_cast<Script*>(user);
  s->calls.push_back("run");
  if (s->fail_run) {
    aisp_set_error("ZeroDivisionError: division by zero (optimized_x.py:12 in benchmark_fn)");
    return 1;
  }
  aisp_buffer_info out{};
  aisp_host_buffer(host, "out", &out);
  static_cast<float*>(out.data)[0] = 42.0f;
  return 0;
}

int teardown_cb(void* user, aisp_host*) {
  static_cast<Script*>(user)->calls.push_back("teardown");
  return 0;
}

aisp_benchmark_callbacks table(Script* s, const char* declarations = kDeclarations) {
  return {AISP_C_API_VERSION, s, declarations, setup_cb, run_cb, teardown_cb};
}

TEST(CallbackBenchmark, DeclarationsReachTheBenchmarkApi) {
  Script s;
  CallbackBenchmark b(table(&s));
  EXPECT_EQ(b.workload().params.at("n"), 6);
  EXPECT_EQ(b.workload().precision, aisp::DType::bf16);
  EXPECT_EQ(b.workload().item_unit, "elements");
  EXPECT_DOUBLE_EQ(b.tolerance().rtol, 0.01);
  EXPECT_EQ(b.tolerance().justification, "bf16 sums");
  EXPECT_EQ(b.goal(), aisp::Goal::memory);
  EXPECT_EQ(b.requirements().min_compute_capability, 90);
  EXPECT_DOUBLE_EQ(b.min_speedup(), 1.2);
  EXPECT_EQ(b.technique(), "fused in torch");
  EXPECT_DOUBLE_EQ(b.latency_percentile(), 95);
}

TEST(CallbackBenchmark, SetupRunTeardownForwardToTheCallbacksAndTheHostCallsReachTheContext) {
  Script s;
  FakeContext ctx;
  CallbackBenchmark b(table(&s));
  b.setup(ctx);
  EXPECT_EQ(s.n, 6);
  EXPECT_EQ(s.stream, reinterpret_cast<void*>(ctx.stream_handle));
  EXPECT_EQ(std::string(s.x.dtype), "bf16");
  EXPECT_EQ(s.x.rank, 2);
  EXPECT_EQ(s.x.dims[1], 3);
  EXPECT_EQ(s.x.bytes, 12u);
  EXPECT_EQ(s.x.data, ctx.buffers["x"].data);
  EXPECT_EQ(ctx.roles["x"], aisp::Role::static_);
  EXPECT_EQ(ctx.fills["x"].kind, aisp::Fill::Kind::normal);
  EXPECT_DOUBLE_EQ(ctx.fills["x"].b, 2.0);
  EXPECT_EQ(ctx.outputs, std::vector<std::string>{"out"});
  EXPECT_NE(s.host_rc, 0);
  EXPECT_NE(s.host_error.find("declared twice"), std::string::npos) << s.host_error;
  b.run(ctx);
  EXPECT_EQ(reinterpret_cast<float*>(ctx.memory["out"].data())[0], 42.0f);
  b.teardown(ctx);
  EXPECT_EQ(s.calls, (std::vector<std::string>{"setup", "run", "teardown"}));
}

TEST(CallbackBenchmark, ACallbackFailureBecomesAnExceptionWithItsMessage) {
  Script s;
  s.fail_run = true;
  FakeContext ctx;
  CallbackBenchmark b(table(&s));
  try {
    b.run(ctx);
    FAIL() << "run() should have thrown";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ZeroDivisionError"), std::string::npos) << e.what();
  }
}

TEST(CallbackBenchmark, HostCallsRejectBadDtypesFillsRolesAndRanks) {
  FakeContext ctx;
  auto* host = reinterpret_cast<aisp_host*>(static_cast<aisp::Context*>(&ctx));
  aisp_buffer_info info{};
  int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_NE(aisp_host_input(host, "a", "float32", 1, dims, "uniform", -1, 1, "dynamic", &info), 0);
  EXPECT_NE(std::string(aisp_last_error()).find("unknown dtype 'float32'"), std::string::npos);
  EXPECT_NE(aisp_host_input(host, "a", "f32", 1, dims, "gaussian", 0, 1, "dynamic", &info), 0);
  EXPECT_NE(aisp_host_input(host, "a", "f32", 1, dims, "uniform", 0, 1, "weights", &info), 0);
  EXPECT_NE(aisp_host_output(host, "a", "f32", 9, dims, &info), 0);
  EXPECT_NE(aisp_host_buffer(host, "missing", &info), 0);
  int64_t v = 0;
  EXPECT_NE(aisp_host_param(host, "m", &v), 0);
  EXPECT_EQ(aisp_host_input(host, "a", "f32", 1, dims, "int_range", 0, 9, "dynamic", &info), 0);
  EXPECT_STREQ(aisp_last_error(), "");
}

TEST(CallbackBenchmark, MissingOrMisspelledDeclarationsAreErrorsNotDefaults) {
  Script s;
  std::string no_goal = kDeclarations;
  no_goal.replace(no_goal.find("\"goal\""), 6, "\"gaol\"");
  EXPECT_THROW(CallbackBenchmark(table(&s, no_goal.c_str())), std::invalid_argument);
  std::string bad_goal = kDeclarations;
  bad_goal.replace(bad_goal.find("\"memory\""), 8, "\"fast\"");
  EXPECT_THROW(CallbackBenchmark(table(&s, bad_goal.c_str())), std::invalid_argument);
  std::string bad_precision = kDeclarations;
  bad_precision.replace(bad_precision.find("\"bf16\""), 6, "\"half\"");
  EXPECT_THROW(CallbackBenchmark(table(&s, bad_precision.c_str())), std::invalid_argument);
  EXPECT_ANY_THROW(CallbackBenchmark(table(&s, "{not json")));
  aisp_benchmark_callbacks old = table(&s);
  old.api_version = AISP_C_API_VERSION + 1;
  EXPECT_THROW(CallbackBenchmark{old}, std::invalid_argument);
  aisp_benchmark_callbacks no_run = table(&s);
  no_run.run = nullptr;
  EXPECT_THROW(CallbackBenchmark{no_run}, std::invalid_argument);
}

}  // namespace

// aisp_host_finding: a host's own finding (the Python worker's torch guards) is kept for the worker's next
// reply with findings, by its check id; identical reports are kept once, reading clears, unknown ids are refused.
TEST(CallbackBenchmark, HostFindingsAreKeptOnceByCheckIdUntilTheWorkerTakesThem) {
  FakeContext ctx;
  auto* host = reinterpret_cast<aisp_host*>(static_cast<aisp::Context*>(&ctx));
  aisp::take_host_findings();
  EXPECT_EQ(aisp_host_finding(host, "K16", "allow_tf32: False -> True"), 0);
  EXPECT_EQ(aisp_host_finding(host, "K16", "allow_tf32: False -> True"), 0);
  EXPECT_EQ(aisp_host_finding(host, "K24", "unique_graphs 1 -> 2"), 0);
  EXPECT_NE(aisp_host_finding(host, "K99", "no such check"), 0);
  EXPECT_NE(std::string(aisp_last_error()).find("unknown check id 'K99'"), std::string::npos);
  EXPECT_NE(aisp_host_finding(nullptr, "K16", "x"), 0);
  auto found = aisp::take_host_findings();
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].check, "K16");
  EXPECT_EQ(found[0].detail, "allow_tf32: False -> True");
  EXPECT_EQ(found[1].check, "K24");
  EXPECT_TRUE(aisp::take_host_findings().empty());
}
