// The worker's implementation of aisp::Context: owns every buffer a benchmark declares, the harness
// stream and the cuBLAS handle, and can refill/poison/fingerprint them on request.
#pragma once
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aisp/benchmark.hpp"
#include "runtime/request_latency.hpp"

namespace aisp {

struct BufferRecord {
  Buffer buffer;
  enum class Kind { input, output, scratch } kind;
  Role role = Role::dynamic;
  Fill fill;
  void* allocation = nullptr;  // what cudaMalloc returned: buffer.data sits kGuardBytes into it
  std::vector<unsigned char> guard;  // the canary bytes: kGuardBytes before the buffer, then kGuardBytes after
};

// Every harness allocation carries a guard band of kGuardBytes before and after the buffer (K22), filled
// with canary bytes of its own (a pseudo-random sequence from the static seed and the buffer's name, so
// bytes read past the end of one buffer and stored past the end of another still differ); cudaMalloc's
// own rounding slack would otherwise absorb an out-of-bounds write unseen. 4 KiB keeps buffer.data as aligned as the allocation's start for anything a kernel needs
// (vector loads, TMA's 128-byte rule).
inline constexpr size_t kGuardBytes = 4096;

class WorkerContext final : public Context {
 public:
  WorkerContext(const DeviceInfo& device, Workload workload, uint64_t static_seed, uint64_t dynamic_seed);
  ~WorkerContext() override;

  cudaStream_t stream() override { return stream_; }
  Buffer input(const std::string& name, DType dtype, Shape shape, Fill fill, Role role) override;
  Buffer output(const std::string& name, DType dtype, Shape shape) override;
  void* scratch(const std::string& name, size_t bytes) override;
  Buffer buffer(const std::string& name) override;
  cublasHandle_t cublas() override;
  const DeviceInfo& device() const override { return device_; }
  int64_t param(const std::string& name) const override;
  RequestTrace request_trace(const std::string& name, const TraceSpec& spec) override;
  void complete_request(int32_t index, cudaStream_t stream) override;

  // Harness side. Each input has its own random stream: the seed is mixed with the buffer's name, so no
  // two inputs of one shape and fill are alike (K5).
  void refill_dynamic_inputs(uint64_t seed);
  // Refills one dynamic input alone (the sensitivity round, K5).
  void refill_input(const std::string& name, uint64_t seed);
  // K22: "buffer 'out': 12 bytes after its end changed (first at +0)" for every damaged guard band.
  std::vector<std::string> damaged_guards();
  void poison_outputs();
  const std::vector<BufferRecord>& records() const { return records_; }
  size_t harness_bytes() const { return harness_bytes_; }
  bool cublas_created() const { return cublas_ != nullptr; }
  cublasHandle_t cublas_if_created() const { return cublas_; }
  // The declared request trace's latency bookkeeping; null without a trace.
  RequestLatency* request_latency() { return latency_.get(); }
  void set_latency_percentile(double p) { latency_percentile_ = p; }

 private:
  // Returns the buffer's start inside a guarded allocation (stored in `allocation`, its canary in `guard`).
  void* allocate(const std::string& name, size_t bytes, void** allocation, std::vector<unsigned char>* guard);
  BufferRecord* find(const std::string& name);

  DeviceInfo device_;
  Workload workload_;
  uint64_t static_seed_, dynamic_seed_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  std::vector<BufferRecord> records_;
  std::unique_ptr<RequestLatency> latency_;
  double latency_percentile_ = 99;
  size_t harness_bytes_ = 0;
};

// The seed of input `name` for the harness seed `seed` (also what a baseline and its variants share).
uint64_t input_seed(uint64_t seed, const std::string& name);

}  // namespace aisp
