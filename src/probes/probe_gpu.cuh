// GPU-side helpers shared by the probes: event timing (median of repeated samples after warm-up),
// device buffers, random fills (never zeros: hw_anchors pitfall 2) and in-kernel clock stamps.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "aisp/check.hpp"

namespace aisp::probes {

// Owning device allocation (cudaMalloc; never managed memory on the GPU machines).
class DevBuf {
 public:
  DevBuf() = default;
  explicit DevBuf(size_t bytes) : bytes_(bytes) { AISP_CUDA_CHECK(cudaMalloc(&p_, bytes)); }
  ~DevBuf() { if (p_) cudaFree(p_); }
  DevBuf(DevBuf&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr; }
  DevBuf& operator=(DevBuf&& o) noexcept { std::swap(p_, o.p_); std::swap(bytes_, o.bytes_); return *this; }
  DevBuf(const DevBuf&) = delete;
  template <class T = void> T* get() const { return static_cast<T*>(p_); }
  size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  size_t bytes_ = 0;
};

// An event pair plus a stream, created once per probe.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t s) : s_(s) {
    AISP_CUDA_CHECK(cudaEventCreate(&a_));
    AISP_CUDA_CHECK(cudaEventCreate(&b_));
  }
  ~EventTimer() { cudaEventDestroy(a_); cudaEventDestroy(b_); }
  // Milliseconds for what `enqueue` puts on the stream, measured by events around it.
  double once(const std::function<void()>& enqueue) {
    AISP_CUDA_CHECK(cudaEventRecord(a_, s_));
    enqueue();
    AISP_CUDA_CHECK(cudaEventRecord(b_, s_));
    AISP_CUDA_CHECK(cudaEventSynchronize(b_));
    float ms = 0;
    AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, a_, b_));
    return ms;
  }
  // `warmup` untimed calls, then `samples` timed ones; each sample = event time / `per_call_units`.
  std::vector<double> samples(const std::function<void()>& enqueue, int warmup, int samples, int per_call_units = 1) {
    for (int i = 0; i < warmup; ++i) enqueue();
    AISP_CUDA_CHECK(cudaStreamSynchronize(s_));
    std::vector<double> out;
    out.reserve(samples);
    for (int i = 0; i < samples; ++i) out.push_back(once(enqueue) / per_call_units);
    return out;
  }

 private:
  cudaStream_t s_;
  cudaEvent_t a_ = nullptr, b_ = nullptr;
};

// RAII non-blocking stream.
class Stream {
 public:
  Stream() { AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

enum class RandKind { f32, f64, bf16, f16, fp8_e4m3, int8, u32 };
// Uniform values in [-1, 1) (int8: [-64, 63], u32: all bits) from a counter-based hash of (seed, index):
// deterministic, cheap, and never all-zero. `count` is in elements of the kind.
void fill_random(void* p, size_t count, RandKind kind, uint64_t seed, cudaStream_t s);

// Clock stamps written by one thread per block: SM cycles (clock64) and ns (%globaltimer) at start and end.
struct ClockStamp {
  unsigned long long clk0, clk1, ns0, ns1;
};
// Median over blocks of Δcycles/Δns: the SM clock the kernel actually ran at, in MHz.
double stamps_mhz(const std::vector<ClockStamp>& stamps);
// Median over blocks of Δcycles.
double stamps_cycles(const std::vector<ClockStamp>& stamps);

#ifdef __CUDACC__
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned long long sm_clock() { return static_cast<unsigned long long>(clock64()); }
#endif

// Samples of a kernel that writes ClockStamps (one per block): event time and in-kernel clock per sample,
// so a clock-adjusted percentage can pair each sample's rate with the clock that sample ran at (the clock
// drifts down as a power-capped GPU heats up; pairing the median time with the last sample's clock
// would overstate the percentage).
struct ClockedSamples {
  std::vector<double> ms, mhz, cycles;
};
ClockedSamples sample_with_clock(EventTimer& timer, const std::function<void()>& run, const ClockStamp* dev_stamps,
                                 int blocks, int warmup, int samples, cudaStream_t s);
// Median over samples of rate_i / ceiling(mhz_i), with rate_i = work / ms_i and ceiling(mhz) = per_clk * mhz.
// Returns the fraction (1.0 = 100 %).
double median_fraction_of_clock(const ClockedSamples& cs, double work_per_ms_unit, double per_mhz_ceiling);

int sm_count(int device);
// Largest number of co-resident blocks per SM for `kernel` (occupancy calculator).
template <class K>
int blocks_per_sm(K kernel, int threads, size_t dyn_smem = 0) {
  int n = 0;
  AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, dyn_smem));
  return n;
}

}  // namespace aisp::probes
