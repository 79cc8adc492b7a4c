// ch07 float4_vector, baseline: SAXPY with one 4-byte element per thread.
//
// Technique: out[i] = fmaf(a, x[i], y[i]), 2^24 threads in 2^16 blocks of 256: two LDG.32 and one STG.32
// per thread, then the thread retires.
// Why it is slow: accesses are coalesced (a warp instruction is one 128 B line), so DRAM traffic is
// minimal; the limit is bytes in flight and instruction issue. At full occupancy a thread has 8 B of
// loads outstanding: 132 SMs x 2048 x 8 B = 2.2 MB, right at Little's law's ~2 MB for HBM3, and only while
// blocks are fully resident - each block lives for one load round trip, so turnover keeps SMs below that.
// Expected on Hopper: ~2.3-2.6 TB/s read + write on H100 SXM, ~75-85 us for the 192 MiB moved.
#include "float4_vector.cuh"

namespace {

__global__ void saxpy_scalar_kernel(float a, const float* __restrict__ x, const float* __restrict__ y,
                                    float* __restrict__ out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaf(a, x[i], y[i]);
}

class BaselineFloat4Vector : public Float4VectorBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    saxpy_scalar_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        kFloat4VectorA, ctx.buffer("x").as<const float>(), ctx.buffer("y").as<const float>(),
        ctx.buffer("out").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "one float per thread (4-byte accesses)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineFloat4Vector)
