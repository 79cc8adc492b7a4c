// ch12 kernel_fusion, optimized: all 200 links in one kernel; each thread keeps its element in a register
// and applies the 200 steps in order.
//
// Technique: vertical fusion of elementwise kernels. The per-link coefficients are the same loads from the
// same `coef` buffer (uniform across a warp, so they are broadcast from L1), the arithmetic is the same
// fused multiply-add in the same order: bit-identical to the chain.
// Why it is faster: one launch instead of 200 (no host issue cost, no inter-kernel gaps), and y crosses
// memory twice instead of 400 times. What remains is one launch latency plus 200 dependent FMAs per thread
// (~200 x 4 cycles = ~0.4 us at 1.98 GHz).
// Expected on Hopper: ~10-15 us including the host's single launch, 30-60x over the chain; more than a
// graph can give (cuda_graphs), because fusion removes the kernels rather than their launch overhead.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.218 ms -> 20.9 us, 58.2x [57.1, 59.4].
#include "launch_chain.cuh"

namespace {

__global__ void chain_fused(const float* __restrict__ x, float* __restrict__ y, const float* __restrict__ coef,
                            int links, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int l = 0; l < links; ++l) v = chain_step(v, coef, l);
  y[i] = v;
}

class OptimizedKernelFusion : public LaunchChainBase {
 public:
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open(s);
    const int64_t n = ctx.param("n");
    chain_fused<<<chain_blocks(n), 256, 0, s>>>(ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(),
                                                ctx.buffer("coef").as<const float>(), static_cast<int>(ctx.param("links")), n);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "the 200 elementwise steps fused into one kernel"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedKernelFusion)
