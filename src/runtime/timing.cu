#include "runtime/timing.hpp"

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "aisp/check.hpp"

namespace aisp {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Long enough for any sane enqueue (thousands of launches), short enough that a run() which itself waits
// on the blocked stream costs one second once, not a hang.
constexpr unsigned long long kBlockingTimeoutNs = 1'000'000'000ull;

__global__ void blocking_kernel(volatile int* release, volatile int* timed_out, unsigned long long timeout_ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (!*release) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > timeout_ns) {
      *timed_out = 1;
      __threadfence_system();
      return;
    }
  }
}

// Reads the flush buffer after it was written. Writing alone leaves L2 full of dirty lines whose
// write-back would then land inside the next timed window (measured on an H100: +8 µs on a 52 µs copy
// against ncu); reading it back leaves L2 holding clean lines only, as ncu's own cache flush does.
__global__ void flush_read_kernel(const uint4* __restrict__ p, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;  // practically never true, but the loads cannot be dropped
}

}  // namespace

TimingMode timing_mode_from_name(const std::string& s) {
  if (s == "cold") return TimingMode::cold;
  if (s == "hot") return TimingMode::hot;
  if (s == "graph") return TimingMode::graph;
  throw std::invalid_argument("unknown timing mode '" + s + "' (cold|hot|graph)");
}

const char* timing_mode_name(TimingMode m) {
  switch (m) {
    case TimingMode::cold: return "cold";
    case TimingMode::hot: return "hot";
    case TimingMode::graph: return "graph";
  }
  return "?";
}

Timer::Timer(const DeviceInfo& device, cudaStream_t stream) : device_(device), stream_(stream) {
  AISP_CUDA_CHECK(cudaEventCreate(&start_));
  AISP_CUDA_CHECK(cudaEventCreate(&stop_));
  // Twice the L2: a single pass of L2 size can leave lines resident under the replacement policy.
  flush_bytes_ = static_cast<size_t>(std::max<int64_t>(device.l2_bytes, 1 << 20)) * 2;
  AISP_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
  int* flags = nullptr;
  AISP_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped));
  flags[0] = flags[1] = 0;
  release_flag_ = flags;
  timed_out_flag_ = flags + 1;
}

Timer::~Timer() {
  cudaStreamSynchronize(stream_);
  cudaFree(flush_buffer_);
  cudaFreeHost(const_cast<int*>(release_flag_));
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void Timer::flush_l2() {
  // Persisting-L2 lines survive ordinary eviction; reset them so no sample inherits another's policy.
  cudaCtxResetPersistingL2Cache();
  AISP_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, static_cast<int>(++flush_value_ & 0xff), flush_bytes_, stream_));
  flush_read_kernel<<<device_.sm_count * 4, 512, 0, stream_>>>(static_cast<const uint4*>(flush_buffer_),
                                                               flush_bytes_ / sizeof(uint4),
                                                               static_cast<unsigned*>(flush_buffer_));
  AISP_LAUNCH_CHECK();
}

void Timer::block_stream() {
  *release_flag_ = 0;
  *timed_out_flag_ = 0;
  int* dev_release = nullptr;
  int* dev_timed_out = nullptr;
  AISP_CUDA_CHECK(cudaHostGetDevicePointer(&dev_release, const_cast<int*>(release_flag_), 0));
  AISP_CUDA_CHECK(cudaHostGetDevicePointer(&dev_timed_out, const_cast<int*>(timed_out_flag_), 0));
  blocking_kernel<<<1, 1, 0, stream_>>>(dev_release, dev_timed_out, kBlockingTimeoutNs);
  AISP_LAUNCH_CHECK();
}

bool Timer::release_stream() {
  *release_flag_ = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return *timed_out_flag_ == 0;
}

namespace {

// Phase values mirror core/audit.hpp's AuditPhase (timing stays independent of the audit).
constexpr int kPhaseHarness = 0, kPhasePrologue = 1, kPhaseRun = 2, kPhaseEpilogue = 3;

void enter(const SampleHooks* h, int phase) {
  if (h && h->phase) h->phase(phase);
}

// Runs the caller's run() tagged as such, then the window-closed hook tagged as the epilogue.
void run_tagged(const SampleHooks* h, const std::function<void()>& run) {
  enter(h, kPhaseRun);
  try {
    run();
  } catch (...) {
    enter(h, kPhaseHarness);
    throw;
  }
  enter(h, kPhaseHarness);
}

void close_window(const SampleHooks* h) {
  if (!h || !h->window_closed) return;
  enter(h, kPhaseEpilogue);
  h->window_closed();
  enter(h, kPhaseHarness);
}

}  // namespace

// After the harness stream is done, a device-wide sync should be nearly free: whatever it still waits for
// is work the benchmark left on other streams (K6).
void Timer::measure_drain(TimingSample& s) {
  if (!measure_drain_) return;
  auto t = Clock::now();
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  s.drain_us = ms_since(t) * 1000.0;
}

TimingSample Timer::cold(const std::function<void()>& run, const SampleHooks* hooks) {
  TimingSample s;
  enter(hooks, kPhasePrologue);
  auto tf = Clock::now();
  flush_l2();
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  s.flush_ms = ms_since(tf);
  bool blocked = blocking_;
  if (blocked) block_stream();
  if (hooks && hooks->window_opening) hooks->window_opening();
  enter(hooks, kPhaseHarness);
  auto t0 = Clock::now();
  AISP_CUDA_CHECK(cudaEventRecord(start_, stream_));
  run_tagged(hooks, run);
  AISP_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  s.enqueue_ms = ms_since(t0);
  close_window(hooks);
  if (blocked && !release_stream()) {
    // The window opened when the blocking kernel gave up, not when run()'s work was queued: retake it.
    blocking_ = false;
    blocking_reason_ = "run() waited on the harness stream while it was held (host sync or a full launch queue); "
                       "samples are taken without the blocking kernel, so they include enqueue latency";
    AISP_CUDA_CHECK(cudaDeviceSynchronize());
    return cold(run, hooks);
  }
  AISP_CUDA_CHECK(cudaEventSynchronize(stop_));
  s.wall_ms = ms_since(t0);
  measure_drain(s);
  float ms = 0;
  AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  s.gpu_ms = ms;
  AISP_CUDA_CHECK(cudaGetLastError());
  auto tn = Clock::now();
  s.nvml = Nvml::instance().clocks(device_.uuid);
  s.nvml_ms = ms_since(tn);
  return s;
}

TimingSample Timer::hot(const std::function<void()>& run, int batch, const SampleHooks* hooks) {
  TimingSample s;
  s.batch = std::max(batch, 1);
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream_));
  // No flush in hot mode; the audit's window-opening marker is the only harness work before the window.
  auto t0 = Clock::now();
  enter(hooks, kPhasePrologue);
  if (hooks && hooks->window_opening) hooks->window_opening();
  enter(hooks, kPhaseHarness);
  AISP_CUDA_CHECK(cudaEventRecord(start_, stream_));
  for (int i = 0; i < s.batch; ++i) run_tagged(hooks, run);
  AISP_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  s.enqueue_ms = ms_since(t0) / s.batch;
  close_window(hooks);
  AISP_CUDA_CHECK(cudaEventSynchronize(stop_));
  s.wall_ms = ms_since(t0) / s.batch;
  measure_drain(s);
  float ms = 0;
  AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  s.gpu_ms = ms / s.batch;
  AISP_CUDA_CHECK(cudaGetLastError());
  auto tn = Clock::now();
  s.nvml = Nvml::instance().clocks(device_.uuid);
  s.nvml_ms = ms_since(tn);
  return s;
}

TimingSample Timer::graph(cudaGraphExec_t exec, bool flush, const SampleHooks* hooks) {
  auto launch = [&] { AISP_CUDA_CHECK(cudaGraphLaunch(exec, stream_)); };
  return flush ? cold(launch, hooks) : hot(launch, 1, hooks);
}

}  // namespace aisp
