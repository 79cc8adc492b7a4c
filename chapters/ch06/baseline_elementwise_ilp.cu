// ch06 elementwise_ilp, baseline: one element per thread, scalar 4-byte loads.
//
// Technique: the default elementwise kernel - 2^24 threads in 65536 blocks of 256, thread i loads a[i]
// and b[i] (two LDG.32), computes silu(a) * b and stores y[i], then retires.
// Why it is slow-ish: each thread has just 8 bytes of loads in flight before it must wait ~600 ns for
// HBM. Even with all 2048 thread slots of all 132 SMs busy that is 132 x 2048 x 8 B = 2.2 MB in flight,
// right at what Little's law asks of HBM3 (3.35 TB/s x ~0.6 us ~ 2 MB), and it is never all busy: every
// thread does one element and retires, so slots sit empty while blocks drain and new ones launch (65536
// block launches per run), and the exp/divide latency after the loads leaves no load outstanding.
// Expected on Hopper: below the ~3 TB/s a streaming kernel reaches (measured on an H100 SXM: 73 us,
// 2.76 TB/s read + write).
#include "elementwise_ilp.cuh"

namespace {

__global__ void swiglu_scalar_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ y,
                                     int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = swiglu_element(a[i], b[i]);
}

class BaselineElementwiseIlp : public ElementwiseIlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    swiglu_scalar_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(), ctx.buffer("y").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "one element per thread, 4-byte loads"; }
};

}  // namespace

AISP_BENCHMARK(BaselineElementwiseIlp)
