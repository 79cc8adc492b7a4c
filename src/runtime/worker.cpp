#include "runtime/worker.hpp"

#include <cstdlib>
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "aisp/check.hpp"
#include "core/protocol.hpp"
#include "core/worker_requests.hpp"
#include "core/schema.hpp"
#include "core/audit.hpp"
#include "core/sample_projection.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/callback_benchmark.hpp"
#include "runtime/cupti_audit.hpp"
#include "runtime/device.hpp"
#include "runtime/ipc_output_device.hpp"
#include "runtime/output_projection.hpp"
#include "runtime/plugin.hpp"
#include "runtime/process_state.hpp"
#include "runtime/timing.hpp"
#include "runtime/worker_context.hpp"

namespace aisp {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kDrainTimeoutS = 10;  // device-wide idle after run()/setup(), else K6
constexpr size_t kMaxOutputs = 64;
// K21 slots: one row of kProjectionSlots doubles per output per sample of a block (the supervisor caps
// blocks at 256 samples; a reference request is served in chunks of this size).
constexpr size_t kMaxBlockSamples = 256;

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

// Device memory this worker added. cudaMemGetInfo is device-wide and the other variants' workers live on
// the same GPU, so only the change across this worker's own requests is counted: the supervisor sends one
// request at a time to one worker, so no other process allocates meanwhile. (Device-wide peaks charged the
// baseline with the optimized worker's buffers.) A transient allocation freed within a request is not seen.
struct MemoryTracker {
  int64_t own = 0, peak = 0;
  size_t anchor = 0;
  void begin_request() { anchor = used(); }
  void observe() {
    size_t now = used();
    own = std::max<int64_t>(0, own + static_cast<int64_t>(now) - static_cast<int64_t>(anchor));
    anchor = now;
    peak = std::max(peak, own);
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
  json handle(const WorkerRequest& req);
  json op_setup(const SetupRequest& req);
  json op_check(const CheckRequest& req);
  json op_replay(const ReplayRequest& req);
  json op_warmup(const WarmupRequest& req);
  json op_time(const TimeRequest& req);
  json op_reference(const ReferenceRequest& req);
  json op_sensitivity(const SensitivityRequest& req);
  void project_outputs_async(size_t slot_row);
  json read_projections(size_t rows);
  void add_guard_findings(std::vector<AuditFinding>& findings);
  // What a host benchmark (the Python worker's guards) reported through aisp_host_finding() since the last
  // reply with findings; added whatever --validity says, since the host decided to report them.
  static void add_host_findings(std::vector<AuditFinding>& findings);
  std::vector<std::string> dynamic_input_names() const;
  json memory_json();
  // One verified run on inputs from `seed`; outputs dumped under dir/tag when `dump`.
  json verified_run(uint64_t seed, const std::string& dir, const std::string& tag, bool dump,
                    const std::function<void()>& body, bool audit);
  json dump_outputs(const std::filesystem::path& dir, const std::string& tag, bool files);
  static json findings_json(const std::vector<AuditFinding>& findings);
  void add_state_findings(const ProcessState& before, std::vector<AuditFinding>& findings);
  void fingerprint_outputs_async();
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
  unsigned long long* fingerprint_slots_ = nullptr;  // K11: one per output
  unsigned long long* marker_slot_ = nullptr;        // the audit's window-opening marker writes here
  double* projection_slots_ = nullptr;                // K21: kMaxBlockSamples x outputs x kProjectionSlots
  size_t output_count_ = 0;
  ProcessState before_load_;                          // K16: snapshot before the plugin's static constructors ran
  std::vector<AuditFinding> load_findings_;           // what loading the plugin changed
  uint64_t projection_key_ = 0;                       // the supervisor's, sent with every timed block
  std::set<std::string> verified_kernels_;           // kernels seen in audited verification runs
  bool fatal_ = false;
};

// The last `n` values within `rel` of their median.
bool runs_agree(const std::vector<double>& v, size_t n, double rel) {
  std::vector<double> tail(v.end() - static_cast<std::ptrdiff_t>(n), v.end());
  std::sort(tail.begin(), tail.end());
  double mid = tail[n / 2];
  return mid > 0 && (tail.back() - tail.front()) <= rel * mid;
}

json error_json(const std::string& kind, const std::string& message) {
  return {{"ok", false}, {"kind", kind}, {"error", message}};
}

// A check that can only be decided by ending the request (work that never finishes): an error whose kind
// is "validity", carrying the check id, which the supervisor turns into INVALID.
json validity_error(const std::string& check, const std::string& message) {
  json j = error_json("validity", message);
  j["check"] = check;
  return j;
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
    // CUPTI subscribes before any benchmark code exists in the process (a plugin cannot subscribe first).
    if (options_.validity) CuptiAudit::instance().init(nullptr);
    // No persisting-L2 carve-out unless a benchmark sets one (and K13 will flag it).
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    cudaGetLastError();
    // Static constructors run inside dlopen, before any request: the state they leave is compared with
    // this snapshot after loading and again after setup() (a limit raised at load time is as much a
    // change as one raised in run()).
    before_load_ = capture_state(nullptr, nullptr);
    if (options_.factory) {
      bench_ = options_.factory();
      if (!bench_) throw PluginError("symbol", options_.plugin + ": the benchmark factory returned null");
    } else {
      plugin_ = std::make_unique<Plugin>(options_.plugin);
      bench_ = plugin_->create();
    }
    workload_ = bench_->workload();
    if (options_.validity)
      for (auto& c : state_changes(before_load_, capture_state(nullptr, nullptr), "loading the plugin (static constructors)"))
        load_findings_.push_back({c.check, c.detail});
    json ready = {{"event", "ready"},
                  {"api_version", kPluginApiVersion},
                  {"binary_version", plugin_ ? plugin_->binary_version() : 0},
                  {"device", to_json(device_)},
                  {"workload", to_json(workload_)},
                  {"tolerance", to_json(bench_->tolerance())},
                  {"goal", goal_name(bench_->goal())},
                  {"latency_percentile", bench_->latency_percentile()},
                  {"requirements", to_json(bench_->requirements())},
                  {"min_speedup", bench_->min_speedup()},
                  {"technique", bench_->technique()},
                  {"informational", bench_->informational()},
                  {"pid", getpid()}};
    // A rank of a multi-rank run (issue 26) says which rank of how many it is, as its launcher told it: the
    // supervisor judges a claim that differs from its plan (a wrong topology) as a finding.
    if (const char* rank = std::getenv("RANK"); rank && *rank) ready["rank"] = std::atoi(rank);
    if (const char* world = std::getenv("WORLD_SIZE"); world && *world) ready["world_size"] = std::atoi(world);
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
    WorkerRequest request;
    try {
      request = parse_request(req);
    } catch (const ProtocolError& e) {
      json resp = error_json("protocol", e.what());
      resp["id"] = req.is_object() ? req.value("id", 0) : 0;
      channel_.send(resp);
      continue;
    }
    if (std::holds_alternative<ExitRequest>(request)) {
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
      resp = handle(request);
    } catch (const CudaError& e) {
      bool oom = e.code == cudaErrorMemoryAllocation;
      resp = error_json(oom ? "oom" : "cuda", e.what());
      resp["cuda_error"] = cudaGetErrorName(static_cast<cudaError_t>(e.code));
      // The harness's own checked call surfaced an error the benchmark caused (K12), e.g. a launch error
      // left pending: visible only because plugins share the worker's CUDA runtime.
      if (!oom) resp["check"] = "K12";
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
        resp["check"] = "K12";  // an error only the shared runtime lets the harness see
        fatal_ = is_sticky(err);
      }
    }
    resp["id"] = req.value("id", 0);
    channel_.send(resp);
    if (fatal_) return 5;
  }
}

json Worker::handle(const WorkerRequest& req) {
  memory_.begin_request();
  if (auto* r = std::get_if<SetupRequest>(&req)) return op_setup(*r);
  if (!ctx_) throw std::logic_error(std::string("request '") + op_name(req) + "' before setup");
  if (auto* r = std::get_if<CheckRequest>(&req)) return op_check(*r);
  if (auto* r = std::get_if<ReplayRequest>(&req)) return op_replay(*r);
  if (auto* r = std::get_if<WarmupRequest>(&req)) return op_warmup(*r);
  if (auto* r = std::get_if<TimeRequest>(&req)) return op_time(*r);
  if (auto* r = std::get_if<ReferenceRequest>(&req)) return op_reference(*r);
  if (auto* r = std::get_if<SensitivityRequest>(&req)) return op_sensitivity(*r);
  return {{"ok", true}, {"memory", memory_json()}};  // MemoryRequest (ExitRequest never reaches here)
}

json Worker::op_setup(const SetupRequest& req) {
  if (ctx_) throw std::logic_error("setup requested twice");
  // The harness's own timing resources exist before the memory baseline, so they are not charged to the benchmark.
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  ctx_ = std::make_unique<WorkerContext>(device_, workload_, req.static_seed, req.dynamic_seed);
  ctx_->set_latency_percentile(bench_->latency_percentile());
  timer_ = std::make_unique<Timer>(device_, ctx_->stream());
  timer_->set_measure_drain(options_.validity);
  AISP_CUDA_CHECK(cudaMalloc(&fingerprint_slots_, kMaxOutputs * sizeof(unsigned long long)));
  AISP_CUDA_CHECK(cudaMalloc(&marker_slot_, sizeof(unsigned long long)));
  AISP_CUDA_CHECK(cudaMalloc(&projection_slots_, kMaxBlockSamples * kMaxOutputs * kProjectionSlots * sizeof(double)));
  memory_.begin_request();  // the context, stream and timer above are the harness's, not the benchmark's
  bench_->setup(*ctx_);
  // Bounded: a kernel that setup() leaves running forever (a persistent server kernel) is a finding, not a hang.
  if (!device_idle_within(kDrainTimeoutS)) {
    fatal_ = true;
    return validity_error("K6", fmt::format("setup() left GPU work running for more than {:.0f} s (a kernel that "
                                            "never finishes does work outside every timed window)", kDrainTimeoutS));
  }
  AISP_CUDA_CHECK(cudaGetLastError());
  memory_.observe();
  json buffers = json::array();
  size_t outputs = 0;
  for (auto& r : ctx_->records()) {
    const char* kind = r.kind == BufferRecord::Kind::input ? "input" : r.kind == BufferRecord::Kind::output ? "output" : "scratch";
    outputs += r.kind == BufferRecord::Kind::output;
    buffers.push_back({{"name", r.buffer.name},
                       {"kind", kind},
                       {"dtype", std::string(dtype_name(r.buffer.dtype))},
                       {"shape", r.buffer.shape.dims},
                       {"role", r.role == Role::static_ ? "static" : "dynamic"},
                       {"bytes", r.buffer.bytes()}});
    // Outputs are exported so the supervisor compares them on the device in its own process (issue 21).
    if (r.kind == BufferRecord::Kind::output)
      if (std::string handle = export_output_allocation(r.allocation); !handle.empty())
        buffers.back()["ipc"] = {{"handle", handle},
                                 {"offset", static_cast<const char*>(r.buffer.data) - static_cast<const char*>(r.allocation)}};
  }
  if (outputs > kMaxOutputs) throw std::invalid_argument(fmt::format("at most {} outputs are supported", kMaxOutputs));
  output_count_ = outputs;
  json audit = options_.validity && !CuptiAudit::instance().available()
                   ? json(CuptiAudit::instance().unavailable_reason()) : json(nullptr);
  std::vector<AuditFinding> findings = load_findings_;
  if (options_.validity) {
    // Threads are compared after loading only: setup() may legitimately create library state (a cuBLAS
    // handle, streams) whose runtime threads are not the benchmark's doing.
    ProcessState after = capture_state(nullptr, nullptr);
    after.threads = before_load_.threads;
    for (auto& c : state_changes(before_load_, after, "loading the plugin and setup()")) findings.push_back({c.check, c.detail});
    add_guard_findings(findings);
  }
  add_host_findings(findings);
  return {{"ok", true}, {"buffers", buffers}, {"memory", memory_json()}, {"audit_unavailable", audit},
          {"findings", findings_json(findings)}};
}

json Worker::dump_outputs(const std::filesystem::path& dir, const std::string& tag, bool files) {
  if (files) std::filesystem::create_directories(dir);
  json outputs = json::array();
  for (auto& r : ctx_->records()) {
    if (r.kind != BufferRecord::Kind::output) continue;
    if (!files) {  // the supervisor reads the buffer itself through its IPC mapping
      AISP_CUDA_CHECK(cudaStreamSynchronize(ctx_->stream()));
      outputs.push_back({{"name", r.buffer.name}, {"dtype", std::string(dtype_name(r.buffer.dtype))},
                         {"shape", r.buffer.shape.dims}});
      continue;
    }
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
                       {"unwritten", count_poison(r.buffer, ctx_->stream())}});
  }
  return outputs;
}

json Worker::findings_json(const std::vector<AuditFinding>& findings) {
  json out = json::array();
  for (auto& f : findings) out.push_back({{"check", f.check}, {"detail", f.detail}});
  return out;
}

void Worker::add_guard_findings(std::vector<AuditFinding>& findings) {
  for (auto& d : ctx_->damaged_guards())
    findings.push_back({"K22", d + ": a write outside the buffer (out of bounds, into the allocation's slack)"});
}

void Worker::add_host_findings(std::vector<AuditFinding>& findings) {
  for (auto& f : take_host_findings()) findings.push_back(std::move(f));
}

std::vector<std::string> Worker::dynamic_input_names() const {
  std::vector<std::string> names;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::input && r.role == Role::dynamic) names.push_back(r.buffer.name);
  return names;
}

// K21: every output of the sample just run, reduced into slot row `row` (async, on the harness stream).
void Worker::project_outputs_async(size_t row) {
  size_t k = 0;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::output)
      project_output_async(r.buffer, projection_key_, projection_slots_ + (row * output_count_ + k++) * kProjectionSlots,
                           ctx_->stream());
}

json Worker::read_projections(size_t rows) {
  std::vector<double> host(rows * output_count_ * kProjectionSlots);
  AISP_CUDA_CHECK(cudaMemcpyAsync(host.data(), projection_slots_, host.size() * sizeof(double), cudaMemcpyDeviceToHost,
                                  ctx_->stream()));
  AISP_CUDA_CHECK(cudaStreamSynchronize(ctx_->stream()));
  json out = json::array();
  for (size_t i = 0; i < rows; ++i) {
    SampleProjection p;
    for (size_t k = 0; k < output_count_; ++k) p.push_back(projection_from_slots(&host[(i * output_count_ + k) * kProjectionSlots]));
    out.push_back(to_json(p));
  }
  return out;
}

void Worker::add_state_findings(const ProcessState& before, std::vector<AuditFinding>& findings) {
  for (auto& c : state_changes(before, capture_state(ctx_->stream(), ctx_->cublas_if_created())))
    findings.push_back({c.check, c.detail});
}

// One verified run: fresh inputs from `seed`, poisoned outputs, `body` (run() or a replayed graph), a
// bounded device-wide drain, then the outputs dumped for the supervisor's comparison. With `audit`, the
// run is also traced: its kernels become the reference set timed samples must stay within (K8).
json Worker::verified_run(uint64_t seed, const std::string& dir, const std::string& tag, bool dump,
                          const std::function<void()>& body, bool audit) {
  cudaStream_t s = ctx_->stream();
  ctx_->refill_dynamic_inputs(seed);
  ctx_->poison_outputs();
  std::vector<uint64_t> before;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::input) before.push_back(fingerprint(r.buffer.data, r.buffer.bytes(), s));
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  audit = audit && options_.validity && CuptiAudit::instance().available();
  if (audit) CuptiAudit::instance().start(s);
  ProcessState state = capture_state(s, ctx_->cublas_if_created());
  auto t0 = Clock::now();
  {
    AuditPhaseScope tag_run(AuditPhase::run, -1);
    body();
  }
  std::vector<AuditFinding> findings;
  if (options_.validity) add_state_findings(state, findings);
  // Device-wide: a checked run's outputs are read only after every stream, joined or not, is done.
  bool idle = audit ? true : device_idle_within(kDrainTimeoutS);
  AuditTrace trace;
  if (audit) {
    trace = CuptiAudit::instance().stop(kDrainTimeoutS);
    idle = trace.quiesced;
  }
  if (!idle) {
    fatal_ = true;
    return validity_error("K6", fmt::format("GPU work was still running {:.0f} s after run() returned (a kernel left "
                                            "running does work outside every timed window)", kDrainTimeoutS));
  }
  double elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  AISP_CUDA_CHECK(cudaGetLastError());
  memory_.observe();
  json resp = {{"ok", true}, {"wall_ms", elapsed_ms}, {"memory", memory_json()}};
  if (audit) {
    AuditSummary summary = analyze_audit(trace);
    verified_kernels_.insert(summary.kernels.begin(), summary.kernels.end());
    findings.insert(findings.end(), summary.findings.begin(), summary.findings.end());
    resp["audit"] = {{"activities", summary.run_activities}, {"kernels", summary.kernels}};
  }
  json changed = json::array();
  size_t i = 0;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::input && fingerprint(r.buffer.data, r.buffer.bytes(), s) != before[i++])
      changed.push_back(r.buffer.name);
  resp["inputs_changed"] = changed;
  resp["outputs"] = dump_outputs(dir, tag, dump);
  if (options_.validity) add_guard_findings(findings);
  add_host_findings(findings);
  resp["findings"] = findings_json(findings);
  return resp;
}

json Worker::op_check(const CheckRequest& req) {
  return verified_run(req.seed, req.dir, req.tag, req.dump, [&] { run_once(); }, req.audit);
}

// K10: capture one run() into a graph on the harness stream, then replay it on fresh inputs. Work the
// capture did not record (other streams, other threads, host-side caching) is missing from the replay.
json Worker::op_replay(const ReplayRequest& req) {
  cudaStream_t s = ctx_->stream();
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  cudaGraph_t g = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::string why;
  if (cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal); e != cudaSuccess) {
    why = cudaGetErrorString(e);
  } else {
    try {
      run_once();
    } catch (const std::exception& ex) {
      why = ex.what();
    }
    cudaError_t e2 = cudaStreamEndCapture(s, &g);
    if (why.empty() && e2 != cudaSuccess) why = fmt::format("{} ({})", cudaGetErrorName(e2), cudaGetErrorString(e2));
    if (why.empty() && cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) why = "graph instantiation failed";
  }
  cudaGetLastError();
  if (g) cudaGraphDestroy(g);
  // Whatever ran eagerly during the capture attempt must finish before the replay's inputs are written.
  if (!device_idle_within(kDrainTimeoutS)) {
    fatal_ = true;
    return validity_error("K6", "GPU work launched during graph capture never finished");
  }
  cudaGetLastError();
  if (!exec) return {{"ok", true}, {"captured", false}, {"reason", why}};
  json resp;
  try {
    resp = verified_run(req.seed, req.dir, req.tag, req.dump, [&] { AISP_CUDA_CHECK(cudaGraphLaunch(exec, s)); }, false);
  } catch (...) {
    cudaGraphExecDestroy(exec);
    throw;
  }
  cudaGraphExecDestroy(exec);
  resp["captured"] = true;
  return resp;
}

// Warm-up until the time per run and the clock have settled: at least `count` runs, then it stops once
// the last kStableRuns run times agree within `stable_rel` of their median and the SM clock is near its
// maximum (or NVML cannot tell), or at `max_time_s` whatever they do. `min_time_s` keeps a floor for
// callers that want one. A fixed 0.2 s per variant was most of a small target's warm-up cost.
json Worker::op_warmup(const WarmupRequest& req) {
  constexpr size_t kStableRuns = 3;
  constexpr double kClockFraction = 0.95;
  const int count = req.count;
  const double min_time_s = req.min_time_s, max_time_s = std::max(req.max_time_s, req.min_time_s);
  const double stable_rel = req.stable_rel;
  auto mode = timing_mode_from_name(req.mode);
  auto t0 = Clock::now();
  int runs = 0;
  std::vector<double> times;
  bool stable = false;
  for (;;) {
    TimingSample s = mode == TimingMode::graph ? timer_->graph(graph(), true) : timer_->cold([&] { run_once(); });
    times.push_back(s.gpu_ms);
    ++runs;
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    bool clock_up = s.nvml.sm_clock_mhz <= 0 || device_.sm_clock_max_mhz <= 0 ||
                    s.nvml.sm_clock_mhz >= kClockFraction * device_.sm_clock_max_mhz;
    stable = clock_up && times.size() >= kStableRuns && runs_agree(times, kStableRuns, stable_rel);
    if (runs >= count && elapsed >= min_time_s && (stable || elapsed >= max_time_s)) break;
  }
  memory_.observe();
  return {{"ok", true}, {"runs", runs}, {"estimate_ms", times.back()}, {"stable", stable},
          {"elapsed_ms", std::chrono::duration<double, std::milli>(Clock::now() - t0).count()}};
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

// Fingerprints of every output into device slots, enqueued on the harness stream.
void Worker::fingerprint_outputs_async() {
  size_t k = 0;
  for (auto& r : ctx_->records())
    if (r.kind == BufferRecord::Kind::output)
      fingerprint_async(r.buffer.data, r.buffer.bytes(), fingerprint_slots_ + k++, ctx_->stream());
}

// A block of timed samples. With validity on, every sample is treated the same way, so a benchmark cannot
// tell a checked sample from another: fresh dynamic inputs (the shared seed of sample first_sample + i),
// outputs poisoned, and after the window every output reduced to its K21 projections, which the
// supervisor compares with the baseline's for the same seed. `verify_sample` is also compared in full:
// dumped to files, or (`dump` false: the supervisor maps the outputs) the block ends on it, so its outputs
// stay in the buffers for the supervisor to read; `audit` traces the block with CUPTI and fingerprints the outputs right
// after each window and again after quiescence (K11). Audited samples are returned separately so the
// audit's cost stays out of the statistics.
json Worker::op_time(const TimeRequest& req) {
  auto mode = timing_mode_from_name(req.mode);
  const int samples = req.samples, batch = req.batch;
  const uint64_t seed_base = req.sample_seed;
  const int64_t first_sample = req.first_sample;
  projection_key_ = req.projection_key;
  bool project = options_.validity && samples <= static_cast<int>(kMaxBlockSamples);
  int verify_sample = options_.validity ? req.verify_sample : -1;
  const bool dump = req.dump;
  bool audit = options_.validity && req.audit && CuptiAudit::instance().available();
  cudaStream_t stream = ctx_->stream();
  if (mode == TimingMode::graph) graph();  // captured outside any audit window

  int current = -1;
  // Goal::latency: every request's completion stamp cleared before each sample, the window-open stamp
  // written as the window opens, the run's percentile read after it (runtime/request_latency.hpp).
  RequestLatency* latency = ctx_->request_latency();
  SampleHooks hooks;
  if (audit) hooks.phase = [&](int phase) { CuptiAudit::set_phase(static_cast<AuditPhase>(phase), current); };
  hooks.window_closed = [&] {
    if (audit) fingerprint_outputs_async();
    if (latency) latency->close_window_async(stream);
  };
  hooks.window_opening = [&] {
    if (audit) AISP_CUDA_CHECK(cudaMemsetAsync(marker_slot_, 0, sizeof *marker_slot_, stream));
    if (latency) latency->open_window_async(stream);
  };
  std::vector<AuditFinding> findings;
  std::vector<AuditSampleTime> times;
  json out = json::array(), verified = nullptr;
  if (audit) CuptiAudit::instance().start(stream);
  ProcessState state = capture_state(stream, ctx_->cublas_if_created());
  // Host time outside the timed windows, so the supervisor can say where a block's wall time went.
  double refill_ms = 0, flush_ms = 0, nvml_ms = 0, drain_ms = 0, block_ms = 0;
  auto block_start = Clock::now();
  // Temperature, power and the energy counter once per block (not per sample: NVML queries are slow).
  const NvmlSample block_begin = Nvml::instance().sample(ctx_->device().uuid);
  for (int i = 0; i < samples; ++i) {
    current = i;
    auto tr = Clock::now();
    const uint64_t seed = sample_seed(seed_base, first_sample + i);
    if (options_.validity) {
      ctx_->refill_dynamic_inputs(seed);
      ctx_->poison_outputs();
    }
    if (latency) latency->clear_async(stream);
    refill_ms += std::chrono::duration<double, std::milli>(Clock::now() - tr).count();
    const SampleHooks* h = audit || latency ? &hooks : nullptr;
    TimingSample s;
    switch (mode) {
      case TimingMode::cold: s = timer_->cold([&] { run_once(); }, h); break;
      case TimingMode::hot: s = timer_->hot([&] { run_once(); }, batch, h); break;
      case TimingMode::graph: s = timer_->graph(graph(), true, h); break;
    }
    if (project) project_outputs_async(static_cast<size_t>(i));
    flush_ms += s.flush_ms;
    nvml_ms += s.nvml_ms;
    if (s.drain_us > 0) drain_ms += s.drain_us / 1000.0;
    if (audit) {
      times.push_back({i, s.gpu_ms, s.batch});
      std::vector<unsigned long long> at_close(kMaxOutputs);
      AISP_CUDA_CHECK(cudaMemcpy(at_close.data(), fingerprint_slots_, at_close.size() * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost));
      size_t k = 0;
      for (auto& r : ctx_->records()) {
        if (r.kind != BufferRecord::Kind::output) continue;
        if (fingerprint(r.buffer.data, r.buffer.bytes(), stream) != at_close[k++])
          findings.push_back({"K11", fmt::format("sample {}: output '{}' changed after the timed window closed "
                                                 "(writes deferred past the stop event)", i, r.buffer.name)});
      }
    }
    if (i == verify_sample) {
      AISP_CUDA_CHECK(cudaDeviceSynchronize());
      verified = {{"sample", i}, {"seed", seed},
                  {"outputs", dump_outputs(req.dir, req.tag, dump)}};
    }
    out.push_back({{"gpu_ms", s.gpu_ms}, {"wall_ms", s.wall_ms}, {"enqueue_ms", s.enqueue_ms}, {"batch", s.batch},
                   {"drain_us", s.drain_us},
                   {"sm_mhz", s.nvml.sm_clock_mhz}, {"throttle", s.nvml.throttle_reasons}});
    if (latency && s.batch == 1) out.back()["latency_ms"] = latency->percentile_ms(stream);
    if (i == verify_sample && !dump) break;
  }
  block_ms = std::chrono::duration<double, std::milli>(Clock::now() - block_start).count();
  const NvmlSample block_end = Nvml::instance().sample(ctx_->device().uuid);
  json telemetry = nullptr;
  if (block_begin.valid && block_end.valid) {
    telemetry = {{"wall_ms", block_ms}, {"temp_c", block_end.temperature_c}, {"power_w", block_end.power_w},
                 {"mem_mhz", block_end.mem_clock_mhz}};
    // The counter is total energy since driver load; 0 means the GPU does not report it.
    if (block_begin.energy_mj > 0 && block_end.energy_mj >= block_begin.energy_mj)
      telemetry["energy_mj"] = static_cast<double>(block_end.energy_mj - block_begin.energy_mj);
  }
  if (options_.validity) {
    add_state_findings(state, findings);
    add_guard_findings(findings);
  }
  add_host_findings(findings);
  json audit_json = nullptr;
  if (audit) {
    AuditTrace trace = CuptiAudit::instance().stop(kDrainTimeoutS);
    if (!trace.quiesced) {
      fatal_ = true;
      return validity_error("K6", "GPU work was still running long after the audited samples ended");
    }
    trace.samples = times;
    trace.verified_kernels = verified_kernels_;
    AuditSummary summary = analyze_audit(trace);
    findings.insert(findings.end(), summary.findings.begin(), summary.findings.end());
    audit_json = {{"activities", summary.run_activities}, {"side_stream_activities", summary.side_stream_activities},
                  {"kernels", summary.kernels}, {"markers_seen", summary.markers_seen}};
  }
  memory_.observe();
  json resp = {{"ok", true}, {"samples", out}, {"blocking", timer_->blocking_enabled()}, {"audited", audit},
               {"projections", project ? read_projections(out.size()) : json(nullptr)},
               {"audit", audit_json}, {"verified", verified}, {"findings", findings_json(findings)},
               {"host_ms", {{"block", block_ms}, {"input_refill", refill_ms}, {"l2_flush", flush_ms},
                            {"nvml", nvml_ms}, {"drain", drain_ms}}},
               {"telemetry", telemetry}};
  if (!timer_->blocking_enabled()) resp["blocking_note"] = timer_->blocking_disabled_reason();
  return resp;
}

// K21 references: the baseline's projections for samples a variant ran and the baseline did not, each
// run as a timed sample is (same seed, fresh inputs, poisoned outputs) but untimed.
json Worker::op_reference(const ReferenceRequest& req) {
  const uint64_t seed_base = req.sample_seed;
  projection_key_ = req.projection_key;
  const std::vector<int64_t>& indices = req.samples;
  json out = json::array();
  for (size_t start = 0; start < indices.size(); start += kMaxBlockSamples) {
    size_t rows = std::min(kMaxBlockSamples, indices.size() - start);
    for (size_t i = 0; i < rows; ++i) {
      ctx_->refill_dynamic_inputs(sample_seed(seed_base, indices[start + i]));
      ctx_->poison_outputs();
      run_once();
      project_outputs_async(i);
    }
    if (!device_idle_within(kDrainTimeoutS)) {
      fatal_ = true;
      return validity_error("K6", "GPU work was still running long after the reference runs ended");
    }
    for (auto& p : read_projections(rows)) out.push_back(p);
  }
  return {{"ok", true}, {"projections", out}};
}

// K5: does every dynamic input matter? One run on `seed`, then one per input with only that input
// refilled from `alt_seed`; an input whose change leaves every output bit-identical is not read.
json Worker::op_sensitivity(const SensitivityRequest& req) {
  const uint64_t seed = req.seed, alt = req.alt_seed;
  cudaStream_t s = ctx_->stream();
  auto output_hash = [&] {
    if (!device_idle_within(kDrainTimeoutS)) throw std::runtime_error("GPU work never finished in the sensitivity round");
    uint64_t h = 0;
    for (auto& r : ctx_->records())
      if (r.kind == BufferRecord::Kind::output) h = h * 0x100000001b3ull ^ fingerprint(r.buffer.data, r.buffer.bytes(), s);
    return h;
  };
  ctx_->refill_dynamic_inputs(seed);
  ctx_->poison_outputs();
  run_once();
  const uint64_t reference = output_hash();
  json changed = json::object();
  for (auto& name : dynamic_input_names()) {
    ctx_->refill_dynamic_inputs(seed);
    ctx_->refill_input(name, alt);
    ctx_->poison_outputs();
    run_once();
    changed[name] = output_hash() != reference;
  }
  return {{"ok", true}, {"changed", changed}};
}

json Worker::memory_json() {
  constexpr double MiB = 1024.0 * 1024.0;
  return {{"peak_mb", memory_.peak / MiB},
          {"allocated_mb", (ctx_ ? ctx_->harness_bytes() : 0) / MiB},
          {"reserved_mb", memory_.own / MiB}};
}

}  // namespace

int worker_main(const WorkerOptions& options) {
  Worker w(options);
  return w.main();
}

}  // namespace aisp
