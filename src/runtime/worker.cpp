#include "runtime/worker.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

#include "aisp/check.hpp"
#include "core/protocol.hpp"
#include "core/schema.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/plugin.hpp"
#include "runtime/timing.hpp"
#include "runtime/worker_context.hpp"

namespace aisp {
namespace {

using Clock = std::chrono::steady_clock;

// Errors after which the CUDA context is unusable: report, then exit.
bool is_sticky(int code) {
  switch (code) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchFailure: case cudaErrorMisalignedAddress:
    case cudaErrorIllegalInstruction: case cudaErrorInvalidPc: case cudaErrorHardwareStackError:
    case cudaErrorAssert: case cudaErrorLaunchTimeout: case cudaErrorInvalidAddressSpace:
      return true;
    default:
      return false;
  }
}

struct MemoryTracker {
  size_t baseline_used = 0, peak = 0, last = 0;
  void start() { baseline_used = used(); }
  void observe() {
    last = used() > baseline_used ? used() - baseline_used : 0;
    peak = std::max(peak, last);
  }
  static size_t used() {
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
    return total - free;
  }
};

class Worker {
 public:
  explicit Worker(const WorkerOptions& o) : channel_(o.in_fd, o.out_fd), options_(o) {}
  int main();

 private:
  json handle(const json& req);
  json op_setup(const json& req);
  json op_check(const json& req);
  json op_warmup(const json& req);
  json op_time(const json& req);
  json memory_json();
  void run_once() { bench_->run(*ctx_); }
  cudaGraphExec_t graph();

  LineChannel channel_;
  WorkerOptions options_;
  DeviceInfo device_;
  std::unique_ptr<Plugin> plugin_;
  std::unique_ptr<Benchmark> bench_;
  Workload workload_;
  std::unique_ptr<WorkerContext> ctx_;
  std::unique_ptr<Timer> timer_;
  MemoryTracker memory_;
  cudaGraphExec_t graph_exec_ = nullptr;
  bool fatal_ = false;
};

json error_json(const std::string& kind, const std::string& message) {
  return {{"ok", false}, {"kind", kind}, {"error", message}};
}

int Worker::main() {
  // A benchmark may close stdout or write to a closed pipe; neither may kill the protocol.
  signal(SIGPIPE, SIG_IGN);
  try {
    std::string why;
    if (cuda_device_count(&why) == 0) {
      channel_.send({{"event", "error"}, {"kind", "no_gpu"}, {"error", why}});
      return 2;
    }
    AISP_CUDA_CHECK(cudaSetDevice(0));
    AISP_CUDA_CHECK(cudaFree(nullptr));  // create the context before anything is measured
    device_ = query_device(0);
    // No persisting-L2 carve-out unless a benchmark sets one (and K13 will flag it).
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaGetLastError();
    plugin_ = std::make_unique<Plugin>(options_.plugin);
    bench_ = plugin_->create();
    workload_ = bench_->workload();
    json ready = {{"event", "ready"},
                  {"api_version", kPluginApiVersion},
                  {"binary_version", plugin_->binary_version()},
                  {"device", to_json(device_)},
                  {"workload", to_json(workload_)},
                  {"tolerance", to_json(bench_->tolerance())},
                  {"goal", goal_name(bench_->goal())},
                  {"requirements", to_json(bench_->requirements())},
                  {"min_speedup", bench_->min_speedup()},
                  {"technique", bench_->technique()},
                  {"pid", getpid()}};
    channel_.send(ready);
  } catch (const PluginError& e) {
    channel_.send({{"event", "error"}, {"kind", e.kind}, {"error", e.what()}});
    return 3;
  } catch (const std::exception& e) {
    channel_.send({{"event", "error"}, {"kind", "load"}, {"error", e.what()}});
    return 3;
  }

  for (;;) {
    json req;
    auto st = channel_.receive(req, -1);
    if (st != LineChannel::Status::ok) return st == LineChannel::Status::eof ? 0 : 4;
    if (req.value("op", "") == "exit") {
      try {
        if (ctx_) bench_->teardown(*ctx_);
      } catch (...) {
      }
      channel_.send({{"ok", true}});
      std::fflush(nullptr);
      return 0;
    }
    json resp;
    try {
      resp = handle(req);
    } catch (const CudaError& e) {
      bool oom = e.code == cudaErrorMemoryAllocation;
      resp = error_json(oom ? "oom" : "cuda", e.what());
      resp["cuda_error"] = cudaGetErrorName(static_cast<cudaError_t>(e.code));
      fatal_ = is_sticky(e.code);
    } catch (const std::bad_alloc& e) {
      resp = error_json("oom_host", std::string("host allocation failed: ") + e.what());
    } catch (const std::exception& e) {
      std::string msg = e.what();
      bool oom = msg.find("out of memory") != std::string::npos || msg.find("ALLOC_FAILED") != std::string::npos;
      resp = error_json(oom ? "oom" : "exception", msg);
    }
    // An error the benchmark left behind without our checks seeing it is still an error (K12).
    if (resp.value("ok", false)) {
      if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
        resp = error_json(err == cudaErrorMemoryAllocation ? "oom" : "cuda",
                          fmt::format("CUDA error left pending: {} ({})", cudaGetErrorName(err), cudaGetErrorString(err)));
        fatal_ = is_sticky(err);
      }
    }
    resp["id"] = req.value("id", 0);
    channel_.send(resp);
    if (fatal_) return 5;
  }
}

json Worker::handle(const json& req) {
  std::string op = req.value("op", "");
  if (op == "setup") return op_setup(req);
  if (!ctx_) throw std::logic_error("request '" + op + "' before setup");
  if (op == "check") return op_check(req);
  if (op == "warmup") return op_warmup(req);
  if (op == "time") return op_time(req);
  if (op == "memory") return {{"ok", true}, {"memory", memory_json()}};
  throw std::invalid_argument("unknown request '" + op + "'");
}

json Worker::op_setup(const json& req) {
  if (ctx_) throw std::logic_error("setup requested twice");
  // The harness's own timing resources exist before the memory baseline, so they are not charged to the benchmark.
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  memory_.start();
  ctx_ = std::make_unique<WorkerContext>(device_, workload_, req.at("static_seed").get<uint64_t>(),
                                         req.at("dynamic_seed").get<uint64_t>());
  timer_ = std::make_unique<Timer>(device_, ctx_->stream());
  size_t timer_bytes = MemoryTracker::used() - memory_.baseline_used;
  memory_.baseline_used += timer_bytes;
  bench_->setup(*ctx_);
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  memory_.observe();
  json buffers = json::array();
  for (auto& r : ctx_->records()) {
    const char* kind = r.kind == BufferRecord::Kind::input ? "input" : r.kind == BufferRecord::Kind::output ? "output" : "scratch";
    buffers.push_back({{"name", r.buffer.name},
                       {"kind", kind},
                       {"dtype", std::string(dtype_name(r.buffer.dtype))},
                       {"shape", r.buffer.shape.dims},
                       {"role", r.role == Role::static_ ? "static" : "dynamic"},
                       {"bytes", r.buffer.bytes()}});
  }
  return {{"ok", true}, {"buffers", buffers}, {"memory", memory_json()}};
}

json Worker::op_check(const json& req) {
  uint64_t seed = req.at("seed").get<uint64_t>();
  std::filesystem::path dir = req.at("dir").get<std::string>();
  std::string tag = req.value("tag", "check");
  std::filesystem::create_directories(dir);
  cudaStream_t s = ctx_->stream();
  ctx_->refill_dynamic_inputs(seed);
  ctx_->poison_outputs();
  std::vector<uint64_t> before;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::input) before.push_back(fingerprint(r.buffer.data, r.buffer.bytes(), s));
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  auto t0 = Clock::now();
  run_once();
  // Device-wide: a checked run's outputs are read only after every stream, joined or not, is done.
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  double elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  memory_.observe();
  json outputs = json::array(), changed = json::array();
  size_t i = 0;
  for (auto& r : ctx_->records()) {
    if (r.kind == BufferRecord::Kind::input) {
      if (fingerprint(r.buffer.data, r.buffer.bytes(), s) != before[i++]) changed.push_back(r.buffer.name);
    } else if (r.kind == BufferRecord::Kind::output) {
      std::vector<char> host(r.buffer.bytes());
      AISP_CUDA_CHECK(cudaMemcpy(host.data(), r.buffer.data, host.size(), cudaMemcpyDeviceToHost));
      auto file = dir / fmt::format("{}__{}.bin", tag, r.buffer.name);
      std::ofstream f(file, std::ios::binary);
      f.write(host.data(), static_cast<std::streamsize>(host.size()));
      if (!f) throw std::runtime_error("cannot write " + file.string());
      outputs.push_back({{"name", r.buffer.name},
                         {"dtype", std::string(dtype_name(r.buffer.dtype))},
                         {"shape", r.buffer.shape.dims},
                         {"file", file.string()},
                         {"unwritten", count_poison(r.buffer, s)}});
    }
  }
  return {{"ok", true}, {"outputs", outputs}, {"inputs_changed", changed}, {"wall_ms", elapsed_ms},
          {"memory", memory_json()}};
}

json Worker::op_warmup(const json& req) {
  int count = req.value("count", 1);
  double min_time_s = req.value("min_time_s", 0.0);
  auto mode = timing_mode_from_name(req.value("mode", "cold"));
  auto t0 = Clock::now();
  int runs = 0;
  double last_ms = 0;
  do {
    TimingSample s = mode == TimingMode::graph ? timer_->graph(graph(), true) : timer_->cold([&] { run_once(); });
    last_ms = s.gpu_ms;
    ++runs;
  } while (runs < count || std::chrono::duration<double>(Clock::now() - t0).count() < min_time_s);
  memory_.observe();
  return {{"ok", true}, {"runs", runs}, {"estimate_ms", last_ms}};
}

cudaGraphExec_t Worker::graph() {
  if (graph_exec_) return graph_exec_;
  cudaGraph_t g = nullptr;
  AISP_CUDA_CHECK(cudaStreamBeginCapture(ctx_->stream(), cudaStreamCaptureModeThreadLocal));
  try {
    run_once();
  } catch (...) {
    cudaStreamEndCapture(ctx_->stream(), &g);
    if (g) cudaGraphDestroy(g);
    throw;
  }
  AISP_CUDA_CHECK(cudaStreamEndCapture(ctx_->stream(), &g));
  AISP_CUDA_CHECK(cudaGraphInstantiate(&graph_exec_, g, 0));
  cudaGraphDestroy(g);
  return graph_exec_;
}

json Worker::op_time(const json& req) {
  auto mode = timing_mode_from_name(req.value("mode", "cold"));
  int samples = req.value("samples", 1);
  int batch = req.value("batch", 1);
  json out = json::array();
  for (int i = 0; i < samples; ++i) {
    TimingSample s;
    switch (mode) {
      case TimingMode::cold: s = timer_->cold([&] { run_once(); }); break;
      case TimingMode::hot: s = timer_->hot([&] { run_once(); }, batch); break;
      case TimingMode::graph: s = timer_->graph(graph(), true); break;
    }
    out.push_back({{"gpu_ms", s.gpu_ms}, {"wall_ms", s.wall_ms}, {"enqueue_ms", s.enqueue_ms}, {"batch", s.batch},
                   {"sm_mhz", s.nvml.sm_clock_mhz}, {"mem_mhz", s.nvml.mem_clock_mhz},
                   {"throttle", s.nvml.throttle_reasons}, {"temp_c", s.nvml.temperature_c},
                   {"power_w", s.nvml.power_w}, {"energy_mj", s.nvml.energy_mj}});
  }
  memory_.observe();
  json resp = {{"ok", true}, {"samples", out}, {"blocking", timer_->blocking_enabled()}};
  if (!timer_->blocking_enabled()) resp["blocking_note"] = timer_->blocking_disabled_reason();
  return resp;
}

json Worker::memory_json() {
  constexpr double MiB = 1024.0 * 1024.0;
  return {{"peak_mb", memory_.peak / MiB},
          {"allocated_mb", (ctx_ ? ctx_->harness_bytes() : 0) / MiB},
          {"reserved_mb", memory_.last / MiB}};
}

}  // namespace

int worker_main(const WorkerOptions& options) {
  Worker w(options);
  return w.main();
}

}  // namespace aisp
