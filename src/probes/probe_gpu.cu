#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>

#include "probes/probe_gpu.cuh"

namespace aisp::probes {
namespace {

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// Uniform in [-1, 1), never exactly 0: 23 random bits + 0.5 is exact in a float, so the value is an odd
// multiple of 2^-23.
__device__ __forceinline__ float unit(uint64_t h) {
  return ((static_cast<uint32_t>(h >> 41) + 0.5f) * (1.0f / 4194304.0f)) - 1.0f;
}

__global__ void fill_kernel(void* p, size_t n, int kind, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t h = splitmix64(seed ^ splitmix64(i));
    float u = unit(h);
    switch (kind) {
      case 0: static_cast<float*>(p)[i] = u; break;
      case 1: static_cast<double*>(p)[i] = u; break;
      case 2: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16(u); break;
      case 3: static_cast<__half*>(p)[i] = __float2half(u); break;
      case 4: static_cast<__nv_fp8_e4m3*>(p)[i] = __nv_fp8_e4m3(u); break;
      case 5: static_cast<int8_t*>(p)[i] = static_cast<int8_t>(static_cast<int>(h & 127) - 64); break;
      default: static_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(h) | 1u; break;
    }
  }
}

}  // namespace

void fill_random(void* p, size_t count, RandKind kind, uint64_t seed, cudaStream_t s) {
  int blocks = static_cast<int>(std::min<size_t>((count + 255) / 256, 132 * 16));
  fill_kernel<<<std::max(blocks, 1), 256, 0, s>>>(p, count, static_cast<int>(kind), seed);
  AISP_LAUNCH_CHECK();
}

static double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double stamps_mhz(const std::vector<ClockStamp>& stamps) {
  std::vector<double> f;
  for (auto& s : stamps)
    if (s.ns1 > s.ns0 && s.clk1 > s.clk0) f.push_back(double(s.clk1 - s.clk0) / double(s.ns1 - s.ns0) * 1e3);
  return f.empty() ? 0 : median_of(f);
}

double stamps_cycles(const std::vector<ClockStamp>& stamps) {
  std::vector<double> c;
  for (auto& s : stamps)
    if (s.clk1 > s.clk0) c.push_back(double(s.clk1 - s.clk0));
  return median_of(c);
}

ClockedSamples sample_with_clock(EventTimer& timer, const std::function<void()>& run, const ClockStamp* dev_stamps,
                                 int blocks, int warmup, int samples, cudaStream_t s) {
  for (int i = 0; i < warmup; ++i) run();
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
  ClockedSamples cs;
  std::vector<ClockStamp> host(blocks);
  for (int i = 0; i < samples; ++i) {
    cs.ms.push_back(timer.once(run));
    AISP_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev_stamps, sizeof(ClockStamp) * blocks, cudaMemcpyDeviceToHost, s));
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));
    cs.mhz.push_back(stamps_mhz(host));
    cs.cycles.push_back(stamps_cycles(host));
  }
  return cs;
}

double median_fraction_of_clock(const ClockedSamples& cs, double work_per_ms_unit, double per_mhz_ceiling) {
  std::vector<double> f;
  for (size_t i = 0; i < cs.ms.size(); ++i)
    if (cs.ms[i] > 0 && cs.mhz[i] > 0) f.push_back((work_per_ms_unit / cs.ms[i]) / (per_mhz_ceiling * cs.mhz[i]));
  return f.empty() ? 0 : median_of(f);
}

int sm_count(int device) {
  int n = 0;
  AISP_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
  return n;
}

}  // namespace aisp::probes
