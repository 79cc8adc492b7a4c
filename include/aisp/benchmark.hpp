// The benchmark API: what a chapter author writes. One class per .cu file, registered with
// AISP_BENCHMARK(Class). The harness owns inputs, outputs, the stream and all timing; a benchmark only
// declares its buffers in setup() and enqueues its work in run().
//
//   struct Copy : aisp::Benchmark {
//     aisp::Workload workload() const override { return copy_workload(); }
//     void setup(aisp::Context& ctx) override { declare_copy_buffers(ctx); }
//     void run(aisp::Context& ctx) override {
//       copy_kernel<<<grid, block, 0, ctx.stream()>>>(ctx.buffer("out").as<float>(), ...);
//     }
//   };
//   AISP_BENCHMARK(Copy)
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <map>
#include <string>

#include "aisp/buffer.hpp"
#include "aisp/device_info.hpp"
#include "aisp/dtype.hpp"
#include "aisp/request_trace.hpp"
#include "aisp/workload.hpp"

namespace aisp {

inline constexpr int kPluginApiVersion = 3;  // 2: Benchmark::informational(); 3: request traces, latency goal

// The only door to the harness. Implemented by the worker; benchmarks call it, never construct it.
class Context {
 public:
  virtual ~Context() = default;
  // Timed work starts on this stream. Work forked to other streams must be joined back to it (events).
  virtual cudaStream_t stream() = 0;
  // Allocated and filled by the harness from its seed. Call in setup(); fetch again with buffer() in run().
  virtual Buffer input(const std::string& name, DType dtype, Shape shape, Fill fill = Fill::uniform(-1, 1),
                       Role role = Role::dynamic) = 0;
  // Allocated by the harness, poisoned before every checked run, compared in full with the baseline's.
  virtual Buffer output(const std::string& name, DType dtype, Shape shape) = 0;
  // Workspace: allocated outside the timed window, zeroed once, never verified.
  virtual void* scratch(const std::string& name, size_t bytes) = 0;
  // A buffer declared earlier (input or output), by name. Throws if the name is unknown.
  virtual Buffer buffer(const std::string& name) = 0;
  // A cuBLAS handle bound to stream(), math mode pinned by the harness (no silent TF32).
  virtual cublasHandle_t cublas() = 0;
  virtual const DeviceInfo& device() const = 0;
  // A workload parameter (Workload::params) by name, so kernels size themselves from one place.
  virtual int64_t param(const std::string& name) const = 0;
  // A request trace (aisp/request_trace.hpp), declared in setup(); at most one per benchmark.
  virtual RequestTrace request_trace(const std::string& name, const TraceSpec& spec) = 0;
  // Marks request `index` of the trace complete when `stream` reaches this point (enqueued, not immediate).
  // Every request must be marked once per run(); its latency is that moment minus its arrival.
  virtual void complete_request(int32_t index, cudaStream_t stream) = 0;
};

class Benchmark {
 public:
  virtual ~Benchmark() = default;
  virtual Workload workload() const = 0;
  // Declare buffers; precompute only from static inputs. Never derive anything from dynamic input values.
  virtual void setup(Context& ctx) = 0;
  // The timed work, enqueued on ctx.stream(). No host synchronization required (or wanted).
  virtual void run(Context& ctx) = 0;
  virtual void teardown(Context&) {}
  virtual Tolerance tolerance() const { return Tolerance::by_dtype(); }
  virtual Goal goal() const { return Goal::speed; }
  // Goal::latency: the percentile of a run's request latencies that is judged (99: p99).
  virtual double latency_percentile() const { return 99; }
  virtual Requirements requirements() const { return {}; }
  // Minimum speedup for a FASTER verdict; 0 means the harness default (1.05).
  virtual double min_speedup() const { return 0; }
  // One line on the technique, shown in reports ("16-byte vector loads").
  virtual std::string technique() const { return {}; }
  // Non-empty for an optimized variant whose benefit depends on the machine, saying on what ("needs two
  // NUMA nodes; the lent VMs have one"). It is verified, timed and given its verdict like any other, but a
  // verdict other than FASTER is not a failure; reports show the reason beside it. Never for a variant that
  // should win everywhere: that is what the FASTER requirement is for.
  virtual std::string informational() const { return {}; }
};

}  // namespace aisp

// Exports the C entry points the worker looks up with dlsym. The probe kernel exists only so the worker
// can ask the runtime whether this plugin carries code the current GPU can run, before any benchmark code.
#define AISP_BENCHMARK(ClassName)                                                          \
  static __global__ void aisp_plugin_arch_probe_kernel() {}                                \
  extern "C" __attribute__((visibility("default"))) int aisp_plugin_api_version() {       \
    return ::aisp::kPluginApiVersion;                                                      \
  }                                                                                        \
  extern "C" __attribute__((visibility("default"))) ::aisp::Benchmark* aisp_create_benchmark() { \
    return new ClassName();                                                                \
  }                                                                                        \
  extern "C" __attribute__((visibility("default"))) int aisp_plugin_probe_arch(int* binary_version) { \
    cudaFuncAttributes attr{};                                                             \
    cudaError_t err = cudaFuncGetAttributes(&attr, aisp_plugin_arch_probe_kernel); \
    if (binary_version) *binary_version = attr.binaryVersion;                             \
    return static_cast<int>(err);                                                          \
  }
