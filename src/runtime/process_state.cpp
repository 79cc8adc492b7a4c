#include "runtime/process_state.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <thread>

namespace aisp {
namespace {

int thread_count() {
  std::error_code ec;
  int n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec))
    ++n;
  return n;
}

size_t limit(cudaLimit which) {
  size_t v = 0;
  if (cudaDeviceGetLimit(&v, which) != cudaSuccess) cudaGetLastError();
  return v;
}

const char* math_mode_name(int m) {
  switch (m) {
    case CUBLAS_DEFAULT_MATH: return "CUBLAS_DEFAULT_MATH";
    case CUBLAS_TENSOR_OP_MATH: return "CUBLAS_TENSOR_OP_MATH";
    case CUBLAS_PEDANTIC_MATH: return "CUBLAS_PEDANTIC_MATH";
    case CUBLAS_TF32_TENSOR_OP_MATH: return "CUBLAS_TF32_TENSOR_OP_MATH (fp32 GEMMs on TF32 tensor cores)";
    default: return "a non-default cuBLAS math mode";
  }
}

}  // namespace

ProcessState capture_state(cudaStream_t harness_stream, cublasHandle_t cublas) {
  ProcessState s;
  s.threads = thread_count();
  if (cudaGetDevice(&s.device) != cudaSuccess) cudaGetLastError();
  s.stack_bytes = limit(cudaLimitStackSize);
  s.printf_fifo_bytes = limit(cudaLimitPrintfFifoSize);
  s.malloc_heap_bytes = limit(cudaLimitMallocHeapSize);
  s.persisting_l2_bytes = limit(cudaLimitPersistingL2CacheSize);
  cudaStreamAttrValue v{};
  if (cudaStreamGetAttribute(harness_stream, cudaStreamAttributeAccessPolicyWindow, &v) == cudaSuccess)
    s.access_policy_bytes = v.accessPolicyWindow.num_bytes;
  else
    cudaGetLastError();
  if (cublas) {
    cublasMath_t m{};
    if (cublasGetMathMode(cublas, &m) == CUBLAS_STATUS_SUCCESS) s.cublas_math_mode = static_cast<int>(m);
  }
  return s;
}

std::vector<StateChange> state_changes(const ProcessState& b, const ProcessState& a, const std::string& actor) {
  std::vector<StateChange> out;
  if (a.threads > b.threads)
    out.push_back({"K16", fmt::format("{} left {} new thread(s) running ({} before, {} after): work can continue "
                                      "outside the window", actor, a.threads - b.threads, b.threads, a.threads)});
  if (a.device != b.device)
    out.push_back({"K16", fmt::format("{} changed the current device from {} to {}", actor, b.device, a.device)});
  auto lim = [&](const char* name, size_t before, size_t after) {
    if (before != after) out.push_back({"K16", fmt::format("{} changed {} from {} to {} bytes", actor, name, before, after)});
  };
  // The stack limit only when it shrinks: CUDA grows it by itself at the launch of a kernel that needs more
  // stack per thread and never shrinks it back (cudaLimitStackSize's documented behaviour; NCCL's kernels take
  // it from 1024 to 1744-1984 bytes, seen on two H200s on 2026-11-28). An explicit cudaDeviceSetLimit in
  // run() is still K9's (audit), and every other limit is still compared both ways.
  if (a.stack_bytes < b.stack_bytes) lim("cudaLimitStackSize", b.stack_bytes, a.stack_bytes);
  lim("cudaLimitPrintfFifoSize", b.printf_fifo_bytes, a.printf_fifo_bytes);
  lim("cudaLimitMallocHeapSize", b.malloc_heap_bytes, a.malloc_heap_bytes);
  if (a.persisting_l2_bytes != b.persisting_l2_bytes || a.persisting_l2_bytes > 0)
    out.push_back({"K13", fmt::format("persisting-L2 carve-out is {} bytes after {} (was {}): cache lines pinned "
                                      "across samples defeat the cold-cache protocol",
                                      a.persisting_l2_bytes, actor, b.persisting_l2_bytes)});
  if (a.access_policy_bytes > 0)
    out.push_back({"K13", fmt::format("the harness stream carries an L2 access-policy window of {} bytes after {}",
                                      a.access_policy_bytes, actor)});
  int before_mode = b.cublas_math_mode < 0 ? CUBLAS_DEFAULT_MATH : b.cublas_math_mode;
  if (a.cublas_math_mode >= 0 && a.cublas_math_mode != before_mode)
    out.push_back({"K16", fmt::format("{} switched the harness cuBLAS handle from {} to {}", actor,
                                      math_mode_name(before_mode), math_mode_name(a.cublas_math_mode))});
  return out;
}

bool device_idle_within(double seconds) {
  auto done = std::make_shared<std::promise<void>>();
  auto fut = done->get_future();
  std::thread([done] {
    cudaDeviceSynchronize();
    done->set_value();
  }).detach();
  return fut.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::ready;
}

}  // namespace aisp
