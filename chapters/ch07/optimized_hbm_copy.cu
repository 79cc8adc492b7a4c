// ch07 hbm_copy, optimized: the HBM-peak copy - 16 B accesses, 4 independent loads in flight per thread.
//
// Technique: lanes take consecutive 16 B vectors (a warp instruction = 512 contiguous bytes = 4 full lines),
// each thread issues 4 independent LDG.128 (one grid-width apart) before its 4 STG.128, and 1024-thread
// blocks cover the array in one pass (each thread does exactly its 4 vectors; no loop overhead, no tail
// imbalance). This is the best of the 24 launch shapes `aisp hw memory` swept on H100 SXM (1024 threads,
// one pass, 4 x 16 B in flight, default cache policy: 2.975 TB/s read + write); streaming hints
// (ld.global.nc.L1::no_allocate, st.global.cs) and grid-stride one-wave grids measured no better there.
// Why it is faster: every request is a full, aligned line (4 sectors for 128 useful bytes, vs 32 in the
// baseline), and 2048 threads x 64 B = 128 KiB of reads outstanding per SM (17 MB device-wide) is ~8x what
// Little's law asks of HBM3 (~2 MB), so the DRAM, not latency or request throughput, sets the pace.
// Expected on Hopper: ~2.95-3.0 TB/s on H100 SXM = ~88-90% of the 3.35 TB/s datasheet figure (~86-90 us
// for 256 MiB). 90% is the brief's target; the best copy kernel measured on this machine reached 88.8%,
// and cudaMemcpy D2D (copy engines) 89.8%, so expect to land at or just under it: a copy shares the DRAM
// bus between reads and writes, and read/write turnarounds cost the last few percent.
#include <cstdint>
#include <stdexcept>

#include "hbm_copy.cuh"

namespace {

constexpr int kThreads = 1024;
constexpr int kInFlight = 4;  // independent 16 B loads per thread before the first store

__global__ void __launch_bounds__(kThreads)
    hbm_copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float4 v[kInFlight];
#pragma unroll
  for (int u = 0; u < kInFlight; ++u)
    if (i + u * stride < n4) v[u] = in[i + u * stride];
#pragma unroll
  for (int u = 0; u < kInFlight; ++u)
    if (i + u * stride < n4) out[i + u * stride] = v[u];
}

// The n % 4 trailing floats (none for the default n): a few scalar copies.
__global__ void hbm_copy_tail_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t from, int64_t n) {
  const int64_t i = from + threadIdx.x;
  if (i < n) out[i] = in[i];
}

class OptimizedHbmCopy : public HbmCopyBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const float* in = ctx.buffer("in").as<const float>();
    float* out = ctx.buffer("out").as<float>();
    if (reinterpret_cast<uintptr_t>(in) % 16 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0)
      throw std::runtime_error("hbm_copy: 16-byte accesses need 16-byte aligned buffers");
    const int64_t n4 = n / 4;
    const int64_t per_block = int64_t{kThreads} * kInFlight;
    const auto blocks = static_cast<unsigned>((n4 + per_block - 1) / per_block);
    hbm_copy_kernel<<<blocks, kThreads, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(in),
                                                           reinterpret_cast<float4*>(out), n4);
    AISP_LAUNCH_CHECK();
    if (n % 4 != 0) {
      hbm_copy_tail_kernel<<<1, 32, 0, ctx.stream()>>>(in, out, n4 * 4, n);
      AISP_LAUNCH_CHECK();
    }
  }

  std::string technique() const override { return "16-byte accesses, 4 loads in flight per thread, one pass"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedHbmCopy)
