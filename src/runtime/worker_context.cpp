#include "runtime/worker_context.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "aisp/check.hpp"
#include "core/seed_mix.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/cupti_audit.hpp"

namespace aisp {

namespace {

// Rank r >= 1 of a multi-rank run (issue 26) fills its inputs from streams of its own: with the same inputs on
// every rank, an all-reduce's answer would be N x the local value and a rank could skip the collective (a
// short-circuit) unseen. Rank 0 and a one-rank run (RANK unset) keep the streams as they were.
uint64_t rank_salt() {
  static const uint64_t salt = [] {
    const char* r = std::getenv("RANK");
    int rank = r && *r ? std::atoi(r) : 0;
    return rank > 0 ? splitmix64(0x52414e4b00000000ull + static_cast<uint64_t>(rank)) : 0ull;
  }();
  return salt;
}

}  // namespace

uint64_t input_seed(uint64_t seed, const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the name, then one splitmix64 round with the seed
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return splitmix64(seed ^ h ^ rank_salt());
}

WorkerContext::WorkerContext(const DeviceInfo& device, Workload workload, uint64_t static_seed, uint64_t dynamic_seed)
    : device_(device), workload_(std::move(workload)), static_seed_(static_seed), dynamic_seed_(dynamic_seed) {
  // A non-blocking stream: legacy default-stream work by the benchmark does not silently serialize with it,
  // so the audit (not an accident of stream semantics) decides whether side work is joined.
  AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

WorkerContext::~WorkerContext() {
  cudaStreamSynchronize(stream_);
  for (auto& r : records_) cudaFree(r.allocation);
  if (cublas_) cublasDestroy(cublas_);
  cudaStreamDestroy(stream_);
}

void* WorkerContext::allocate(const std::string& name, size_t bytes, void** allocation, std::vector<unsigned char>* guard) {
  if (find(name)) throw std::invalid_argument(fmt::format("buffer '{}' declared twice", name));
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes + 2 * kGuardBytes);
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw CudaError(static_cast<int>(err), fmt::format("allocating {} ({:.1f} MiB): {} ({})", name, bytes / 1048576.0,
                                                       cudaGetErrorName(err), cudaGetErrorString(err)));
  }
  harness_bytes_ += bytes;
  *allocation = p;
  auto* data = static_cast<unsigned char*>(p) + kGuardBytes;
  guard->resize(2 * kGuardBytes);
  uint64_t state = input_seed(static_seed_ ^ 0x6a09e667f3bcc909ull, name);
  for (size_t i = 0; i < guard->size(); i += 8) {
    state = input_seed(state, "guard");
    for (size_t b = 0; b < 8; ++b) (*guard)[i + b] = static_cast<unsigned char>(state >> (8 * b));
  }
  // Synchronous: the host pattern must not be read after this returns (it is kept, but may move).
  AISP_CUDA_CHECK(cudaMemcpy(p, guard->data(), kGuardBytes, cudaMemcpyHostToDevice));
  AISP_CUDA_CHECK(cudaMemcpy(data + bytes, guard->data() + kGuardBytes, kGuardBytes, cudaMemcpyHostToDevice));
  return data;
}

std::vector<std::string> WorkerContext::damaged_guards() {
  std::vector<std::string> out;
  std::vector<unsigned char> host(2 * kGuardBytes);
  for (auto& r : records_) {
    auto* data = static_cast<unsigned char*>(r.buffer.data);
    size_t bytes = r.buffer.bytes();
    AISP_CUDA_CHECK(cudaMemcpyAsync(host.data(), r.allocation, kGuardBytes, cudaMemcpyDeviceToHost, stream_));
    AISP_CUDA_CHECK(cudaMemcpyAsync(host.data() + kGuardBytes, data + bytes, kGuardBytes, cudaMemcpyDeviceToHost, stream_));
    AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
    auto describe = [&](const unsigned char* g, const char* where, bool before) {
      const unsigned char* expected = r.guard.data() + (before ? 0 : kGuardBytes);
      size_t changed = 0, first = 0;
      for (size_t i = 0; i < kGuardBytes; ++i)
        if (g[i] != expected[i] && changed++ == 0) first = i;
      if (!changed) return;
      // Offsets relative to the buffer: negative before its start, +0 is the first byte past its end.
      long long offset = before ? static_cast<long long>(first) - static_cast<long long>(kGuardBytes)
                                : static_cast<long long>(first);
      out.push_back(fmt::format("buffer '{}': {} of the {} guard bytes {} changed (first at {}{})", r.buffer.name,
                                changed, kGuardBytes, where, before ? "" : "end+", offset));
    };
    describe(host.data(), "before its start", true);
    describe(host.data() + kGuardBytes, "after its end", false);
  }
  return out;
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
  void* allocation = nullptr;
  std::vector<unsigned char> guard;
  b.data = allocate(name, b.bytes(), &allocation, &guard);
  // Static inputs are filled before setup() continues, from their own seed; dynamic ones from another.
  fill_buffer(b, fill, input_seed(role == Role::static_ ? static_seed_ : dynamic_seed_, name), stream_);
  records_.push_back({b, BufferRecord::Kind::input, role, fill, allocation, std::move(guard)});
  return b;
}

Buffer WorkerContext::output(const std::string& name, DType dtype, Shape shape) {
  Buffer b{nullptr, dtype, std::move(shape), name};
  void* allocation = nullptr;
  std::vector<unsigned char> guard;
  b.data = allocate(name, b.bytes(), &allocation, &guard);
  poison_buffer(b, stream_);
  records_.push_back({b, BufferRecord::Kind::output, Role::dynamic, {}, allocation, std::move(guard)});
  return b;
}

// The trace is a static input: generated from the static seed mixed with its name, so every variant of the
// pair gets the same one, fingerprinted around run() like any input (K4) and guard-banded (K22).
RequestTrace WorkerContext::request_trace(const std::string& name, const TraceSpec& spec) {
  if (latency_) throw std::logic_error("a benchmark declares at most one request trace");
  if (spec.requests <= 0 || spec.prompt_min > spec.prompt_max || spec.output_min > spec.output_max ||
      spec.prompt_min < 0 || spec.output_min < 0 || spec.mean_interarrival_us < 0)
    throw std::invalid_argument(fmt::format("request trace '{}': invalid spec", name));
  RequestTrace t;
  t.requests = generate_request_trace(input_seed(static_seed_, name), spec);
  Buffer b{nullptr, DType::i32, Shape{spec.requests, 4}, name};
  void* allocation = nullptr;
  std::vector<unsigned char> guard;
  b.data = allocate(name, b.bytes(), &allocation, &guard);
  AISP_CUDA_CHECK(cudaMemcpyAsync(b.data, t.requests.data(), b.bytes(), cudaMemcpyHostToDevice, stream_));
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  records_.push_back({b, BufferRecord::Kind::input, Role::static_, Fill::int_range(0, 0), allocation, std::move(guard)});
  latency_ = std::make_unique<RequestLatency>(t.requests, latency_percentile_);
  t.device = b;
  t.window_open_ns = latency_->window_open_slot();
  t.completion_ns = latency_->completion_slots();
  return t;
}

void WorkerContext::complete_request(int32_t index, cudaStream_t stream) {
  if (!latency_) throw std::logic_error("complete_request() without a request trace (Context::request_trace in setup())");
  latency_->complete(index, stream);
}

void* WorkerContext::scratch(const std::string& name, size_t bytes) {
  Buffer b{nullptr, DType::u8, Shape{static_cast<int64_t>(bytes)}, name};
  void* allocation = nullptr;
  std::vector<unsigned char> guard;
  b.data = allocate(name, bytes, &allocation, &guard);
  AISP_CUDA_CHECK(cudaMemsetAsync(b.data, 0, bytes, stream_));
  records_.push_back({b, BufferRecord::Kind::scratch, Role::dynamic, {}, allocation, std::move(guard)});
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
    if (r.kind == BufferRecord::Kind::input && r.role == Role::dynamic)
      fill_buffer(r.buffer, r.fill, input_seed(seed, r.buffer.name), stream_);
}

void WorkerContext::refill_input(const std::string& name, uint64_t seed) {
  BufferRecord* r = find(name);
  if (!r || r->kind != BufferRecord::Kind::input) throw std::invalid_argument("no input named '" + name + "'");
  fill_buffer(r->buffer, r->fill, input_seed(seed, name), stream_);
}

void WorkerContext::poison_outputs() {
  for (auto& r : records_)
    if (r.kind == BufferRecord::Kind::output) poison_buffer(r.buffer, stream_);
}

}  // namespace aisp
