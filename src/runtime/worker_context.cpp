#include "runtime/worker_context.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "aisp/check.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/cupti_audit.hpp"

namespace aisp {

WorkerContext::WorkerContext(const DeviceInfo& device, Workload workload, uint64_t static_seed, uint64_t dynamic_seed)
    : device_(device), workload_(std::move(workload)), static_seed_(static_seed), dynamic_seed_(dynamic_seed) {
  // A non-blocking stream: legacy default-stream work by the benchmark does not silently serialize with it,
  // so the audit (not an accident of stream semantics) decides whether side work is joined.
  AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

WorkerContext::~WorkerContext() {
  cudaStreamSynchronize(stream_);
  for (auto& r : records_) cudaFree(r.buffer.data);
  if (cublas_) cublasDestroy(cublas_);
  cudaStreamDestroy(stream_);
}

void* WorkerContext::allocate(const std::string& name, size_t bytes) {
  if (find(name)) throw std::invalid_argument(fmt::format("buffer '{}' declared twice", name));
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, std::max<size_t>(bytes, 1));
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw CudaError(static_cast<int>(err), fmt::format("allocating {} ({:.1f} MiB): {} ({})", name, bytes / 1048576.0,
                                                       cudaGetErrorName(err), cudaGetErrorString(err)));
  }
  harness_bytes_ += bytes;
  return p;
}

BufferRecord* WorkerContext::find(const std::string& name) {
  for (auto& r : records_)
    if (r.buffer.name == name) return &r;
  return nullptr;
}

Buffer WorkerContext::input(const std::string& name, DType dtype, Shape shape, Fill fill, Role role) {
  Buffer b{nullptr, dtype, std::move(shape), name};
  if (fill.kind == Fill::Kind::custom && !fill.generator)
    throw std::invalid_argument(fmt::format("input '{}': custom fill without a generator", name));
  b.data = allocate(name, b.bytes());
  // Static inputs are filled before setup() continues, from their own seed; dynamic ones from another.
  fill_buffer(b, fill, role == Role::static_ ? static_seed_ : dynamic_seed_, stream_);
  records_.push_back({b, BufferRecord::Kind::input, role, fill});
  return b;
}

Buffer WorkerContext::output(const std::string& name, DType dtype, Shape shape) {
  Buffer b{nullptr, dtype, std::move(shape), name};
  b.data = allocate(name, b.bytes());
  poison_buffer(b, stream_);
  records_.push_back({b, BufferRecord::Kind::output, Role::dynamic, {}});
  return b;
}

void* WorkerContext::scratch(const std::string& name, size_t bytes) {
  Buffer b{nullptr, DType::u8, Shape{static_cast<int64_t>(bytes)}, name};
  b.data = allocate(name, bytes);
  AISP_CUDA_CHECK(cudaMemsetAsync(b.data, 0, bytes, stream_));
  records_.push_back({b, BufferRecord::Kind::scratch, Role::dynamic, {}});
  return b.data;
}

Buffer WorkerContext::buffer(const std::string& name) {
  if (auto* r = find(name)) return r->buffer;
  throw std::invalid_argument(fmt::format("no buffer named '{}' was declared in setup()", name));
}

cublasHandle_t WorkerContext::cublas() {
  if (!cublas_) {
    HarnessWorkScope harness_work;  // created on the benchmark's first request, but by the harness
    AISP_CUBLAS_CHECK(cublasCreate(&cublas_));
    // Pinned: FP32 GEMMs stay FP32 unless the benchmark declares otherwise per call (K16 checks it stays so).
    AISP_CUBLAS_CHECK(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH));
  }
  AISP_CUBLAS_CHECK(cublasSetStream(cublas_, stream_));
  return cublas_;
}

int64_t WorkerContext::param(const std::string& name) const {
  auto it = workload_.params.find(name);
  if (it == workload_.params.end())
    throw std::invalid_argument(fmt::format("workload has no parameter '{}'", name));
  return it->second;
}

void WorkerContext::refill_dynamic_inputs(uint64_t seed) {
  for (auto& r : records_)
    if (r.kind == BufferRecord::Kind::input && r.role == Role::dynamic) fill_buffer(r.buffer, r.fill, seed, stream_);
}

void WorkerContext::poison_outputs() {
  for (auto& r : records_)
    if (r.kind == BufferRecord::Kind::output) poison_buffer(r.buffer, stream_);
}

}  // namespace aisp
