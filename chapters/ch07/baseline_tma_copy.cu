// ch07 tma_copy, baseline: the plain copy, one 4-byte element per thread.
//
// Technique: `out[i] = in[i]`, 2^24 threads in 2^16 blocks of 256, every thread one LDG.32 and one STG.32.
// Why it is slow: every byte is moved by a thread instruction, 4 B at a time. Even at full occupancy only
// 132 SMs x 2048 threads x 4 B = 1.08 MB of reads are in flight, about half of what Little's law asks of
// HBM3 (3.35 TB/s x ~600 ns ~ 2 MB), and block turnover (each thread does one load and retires) keeps real
// occupancy below full. (ch07:copy_scalar measured this shape at ~2.4 TB/s on H100 SXM.)
// Expected on Hopper: ~2.3-2.5 TB/s read + write, ~55-60 us for the 128 MiB moved on H100 SXM.
// Measured: 55.4 us (2.42 TB/s, 72% of 3.35 TB/s).
#include "tma_copy.cuh"

namespace {

__global__ void plain_copy_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

class BaselineTmaCopy : public TmaCopyBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    plain_copy_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "plain copy, one 4-byte element per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineTmaCopy)
