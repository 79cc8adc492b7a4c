// Where the supervisor reads a variant's outputs: through its own device mapping of the worker's buffers
// (core/output_device.hpp, compared on the GPU, nothing copied), or from files the worker dumped (no
// mapping: no IPC in this environment, a scripted worker in the CPU tests, --keep-outputs). Either way the
// comparison runs in the supervisor, which never loads a plugin.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/output_device.hpp"
#include "core/protocol.hpp"

namespace aisp {

// One output of one reply. `device` is the live buffer (valid until that worker runs again) or a copy the
// supervisor owns (`kept`); `file` is a dump; `host` holds bytes already read.
struct OutputView {
  std::string name;
  DType dtype = DType::f32;
  json shape;
  int64_t count = 0;
  int64_t reported_unwritten = 0;  // the worker's own count, used only when there is no device view
  const void* device = nullptr;
  std::shared_ptr<const void> kept;
  std::string file;
  std::shared_ptr<const std::string> host;
  uint64_t bytes() const { return static_cast<uint64_t>(count) * dtype_size(dtype); }
};

class OutputReader {
 public:
  explicit OutputReader(OutputDevice* device) : device_(device) {}
  // The outputs of a reply; `mapped` (name -> device pointer) is the variant's mapping, empty without one.
  std::vector<OutputView> views(const json& reply_outputs, const std::map<std::string, const void*>& mapped) const;
  CompareResult compare(const OutputView& baseline, const OutputView& candidate, ToleranceValues tol) const;
  int64_t unwritten(const OutputView& v) const;
  // Element i of an output as a double (one element copied, whatever the output's size): what a failed
  // comparison shows for its first mismatch.
  double element(const OutputView& v, int64_t i) const;
  std::string host_bytes(const OutputView& v) const;
  // A copy the supervisor owns, so the worker may run again before the comparison (on the device when
  // memory allows, else in host memory).
  OutputView keep(const OutputView& v) const;
  OutputDevice* device() const { return device_; }

 private:
  OutputDevice* device_;
};

}  // namespace aisp
