// The worker's implementation of aisp::Context: owns every buffer a benchmark declares, the harness
// stream and the cuBLAS handle, and can refill/poison/fingerprint them on request.
#pragma once
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aisp/benchmark.hpp"

namespace aisp {

struct BufferRecord {
  Buffer buffer;
  enum class Kind { input, output, scratch } kind;
  Role role = Role::dynamic;
  Fill fill;
};

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

  // Harness side.
  void refill_dynamic_inputs(uint64_t seed);
  void poison_outputs();
  const std::vector<BufferRecord>& records() const { return records_; }
  size_t harness_bytes() const { return harness_bytes_; }
  bool cublas_created() const { return cublas_ != nullptr; }
  cublasHandle_t cublas_if_created() const { return cublas_; }

 private:
  void* allocate(const std::string& name, size_t bytes);
  BufferRecord* find(const std::string& name);

  DeviceInfo device_;
  Workload workload_;
  uint64_t static_seed_, dynamic_seed_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  std::vector<BufferRecord> records_;
  size_t harness_bytes_ = 0;
};

}  // namespace aisp
