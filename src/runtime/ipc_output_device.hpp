// The supervisor's side of harness-only output comparison (core/output_device.hpp): maps the workers'
// exported output allocations through CUDA IPC into its own context and runs the comparison there. The
// worker's side is export_output_allocation(). Its CUDA context opens lazily, on the first buffer mapped
// (after the environment gate has looked at the GPU's process list), on the device whose UUID the worker
// reported.
#pragma once
#include <cuda_runtime.h>

#include <map>
#include <string>

#include "core/output_device.hpp"

namespace aisp {

// The worker's side: an IPC handle (hex) for an allocation cudaMalloc returned; "" when the allocation
// cannot be exported (the caller then dumps outputs to files as before).
std::string export_output_allocation(void* allocation);

class IpcOutputDevice : public OutputDevice {
 public:
  ~IpcOutputDevice() override;
  const void* open(const ExportedBuffer& buffer, const std::string& device_uuid, std::string* why) override;
  void close(const void* mapped) override;
  CompareResult compare(const void* baseline, const void* candidate, int64_t count, DType dtype,
                        ToleranceValues tol) override;
  int64_t count_poison(const void* data, int64_t count, DType dtype) override;
  std::shared_ptr<const void> copy(const void* data, uint64_t bytes) override;
  std::string to_host(const void* data, uint64_t bytes) override;

 private:
  bool select_device(const std::string& uuid, std::string* why);
  int device_ = -1;
  std::string device_uuid_;
  cudaStream_t stream_ = nullptr;
  std::map<const void*, void*> bases_;  // mapped buffer -> the mapping's base (what cudaIpcCloseMemHandle takes)
};

}  // namespace aisp
