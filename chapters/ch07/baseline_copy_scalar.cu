// ch07 copy_scalar, baseline: one 4-byte element per thread.
//
// Technique: the textbook copy, `out[i] = in[i]` with one thread per element: 2^26 threads in 2^18 blocks,
// each thread issuing one 4-byte load (LDG.32) and one 4-byte store, then retiring.
// Why it is slow-ish: each warp instruction still moves a full coalesced 128 B line, so the DRAM traffic
// is minimal; the limit is bytes in flight. Little's law: to keep H100 SXM's HBM3 (3.35 TB/s) busy at
// ~600 ns loaded latency, ~2 MB must be outstanding. With one 4-byte load per thread, even at full
// occupancy (132 SMs x 2048 threads) only 132 x 2048 x 4 B = 1.08 MB of reads is in flight, and the
// constant block turnover (each thread does one load) keeps real occupancy below full.
// Expected on Hopper: roughly 75-90% of achievable copy bandwidth, i.e. ~2.4-2.8 TB/s counted as
// read + write bytes (~190-220 us for the 512 MiB moved) on H100 SXM.
#include "copy_scalar.cuh"

namespace {

__global__ void copy_scalar_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

class BaselineCopyScalar : public CopyScalarBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const float* in = ctx.buffer("in").as<const float>();
    float* out = ctx.buffer("out").as<float>();
    constexpr int kThreads = 256;
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    copy_scalar_kernel<<<blocks, kThreads, 0, ctx.stream()>>>(in, out, n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "4-byte scalar loads/stores, one element per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCopyScalar)
