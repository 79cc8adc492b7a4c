#include "runtime/ipc_output_device.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "aisp/check.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/device_compare.hpp"

namespace aisp {
namespace {

std::string to_hex(const void* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    unsigned char b = static_cast<const unsigned char*>(p)[i];
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

bool from_hex(const std::string& s, void* out, size_t n) {
  if (s.size() != 2 * n) return false;
  auto nibble = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (size_t i = 0; i < n; ++i) {
    int hi = nibble(s[2 * i]), lo = nibble(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    static_cast<unsigned char*>(out)[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  return true;
}

std::string cuda_text(cudaError_t e) { return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e)); }

}  // namespace

std::string export_output_allocation(void* allocation) {
  cudaIpcMemHandle_t h;
  if (cudaIpcGetMemHandle(&h, allocation) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return to_hex(&h, sizeof h);
}

IpcOutputDevice::~IpcOutputDevice() {
  for (auto& [mapped, base] : bases_) cudaIpcCloseMemHandle(base);
  if (stream_) cudaStreamDestroy(stream_);
}

bool IpcOutputDevice::select_device(const std::string& uuid, std::string* why) {
  if (device_ >= 0) {
    if (uuid == device_uuid_) return true;
    *why = "the workers report another GPU than the one already mapped";
    return false;
  }
  int n = cuda_device_count(why);
  for (int d = 0; d < n; ++d) {
    if (query_device(d).uuid != uuid) continue;
    cudaError_t e = cudaSetDevice(d);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
      cudaGetLastError();
      *why = "the supervisor cannot open a CUDA context: " + cuda_text(e);
      return false;
    }
    device_ = d;
    device_uuid_ = uuid;
    return true;
  }
  if (why->empty()) *why = "the workers' GPU " + uuid + " is not visible to the supervisor";
  return false;
}

const void* IpcOutputDevice::open(const ExportedBuffer& buffer, const std::string& device_uuid, std::string* why) {
  std::string local;
  if (!why) why = &local;
  if (!select_device(device_uuid, why)) return nullptr;
  cudaIpcMemHandle_t h;
  if (!from_hex(buffer.handle_hex, &h, sizeof h)) {
    *why = "malformed IPC handle";
    return nullptr;
  }
  void* base = nullptr;
  if (cudaError_t e = cudaIpcOpenMemHandle(&base, h, cudaIpcMemLazyEnablePeerAccess); e != cudaSuccess) {
    cudaGetLastError();
    *why = "cudaIpcOpenMemHandle: " + cuda_text(e);
    return nullptr;
  }
  const void* mapped = static_cast<const unsigned char*>(base) + buffer.offset;
  bases_[mapped] = base;
  return mapped;
}

void IpcOutputDevice::close(const void* mapped) {
  auto it = bases_.find(mapped);
  if (it == bases_.end()) return;
  cudaIpcCloseMemHandle(it->second);
  cudaGetLastError();
  bases_.erase(it);
}

CompareResult IpcOutputDevice::compare(const void* baseline, const void* candidate, int64_t count, DType dtype,
                                       ToleranceValues tol) {
  return compare_on_device(baseline, candidate, count, dtype, tol, stream_);
}

int64_t IpcOutputDevice::count_poison(const void* data, int64_t count, DType dtype) {
  Buffer view;
  view.data = const_cast<void*>(data);  // read only: count_poison never writes
  view.dtype = dtype;
  view.shape = Shape{count};
  return aisp::count_poison(view, stream_);
}

std::shared_ptr<const void> IpcOutputDevice::copy(const void* data, uint64_t bytes) {
  void* dst = nullptr;
  if (cudaMalloc(&dst, bytes) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  AISP_CUDA_CHECK(cudaMemcpyAsync(dst, data, bytes, cudaMemcpyDeviceToDevice, stream_));
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return std::shared_ptr<const void>(dst, [](const void* p) { cudaFree(const_cast<void*>(p)); });
}

std::string IpcOutputDevice::to_host(const void* data, uint64_t bytes) {
  std::string out(bytes, '\0');
  AISP_CUDA_CHECK(cudaMemcpyAsync(out.data(), data, bytes, cudaMemcpyDeviceToHost, stream_));
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return out;
}

}  // namespace aisp
