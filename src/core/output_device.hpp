// Harness-only access to the workers' output buffers on the GPU (issue 21). A worker exports each output
// allocation as a CUDA IPC handle after setup(); the supervisor, which never loads a plugin (DESIGN §5: a
// plugin can patch its own process), maps them and compares full outputs on the device, so only summaries
// cross the pipe and no buffer travels through host memory or files. The interface lives in core (no CUDA)
// so the runner stays CUDA-free and its tests run without a GPU; src/runtime/ipc_output_device.* is the
// implementation the CLI binds.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "aisp/dtype.hpp"
#include "core/output_comparison.hpp"

namespace aisp {

// One exported output allocation: the IPC handle (hex of cudaIpcMemHandle_t) of the allocation and where
// the buffer starts inside it (after its guard band).
struct ExportedBuffer {
  std::string handle_hex;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

class OutputDevice {
 public:
  virtual ~OutputDevice() = default;
  // Maps `buffer`, exported by a worker on the GPU with this UUID; nullptr with `why` when it cannot
  // (no IPC in this environment, another GPU, a bad handle). Mappings stay until close().
  virtual const void* open(const ExportedBuffer& buffer, const std::string& device_uuid, std::string* why) = 0;
  virtual void close(const void* mapped) = 0;
  // The element-wise comparison of core/output_comparison.hpp, run on the device (same rule, same result).
  virtual CompareResult compare(const void* baseline, const void* candidate, int64_t count, DType dtype,
                                ToleranceValues tol) = 0;
  // Elements still holding the poison pattern of `dtype` (K1: never written).
  virtual int64_t count_poison(const void* data, int64_t count, DType dtype) = 0;
  // A device copy owned by this process (a variant's outputs kept while its own worker runs the reference);
  // nullptr when device memory is short (the caller falls back to host bytes).
  virtual std::shared_ptr<const void> copy(const void* data, uint64_t bytes) = 0;
  virtual std::string to_host(const void* data, uint64_t bytes) = 0;
};

}  // namespace aisp
