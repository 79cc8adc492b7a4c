// ch01 performance, optimized: the same four stages fused into one kernel.
//
// Technique: one float4 grid-stride kernel loads x and residual once, applies affine -> gelu -> residual
// -> layer scale in registers, and stores out once. The stage functions are the baseline's, so the
// output is bit-identical.
// Why it is faster: the intermediates never touch memory. Traffic per run drops from 9 x 64 MiB to
// 3 x 64 MiB (read x, read residual, write out: 201 MB), and one launch replaces four. Arithmetic
// intensity rises from ~1.3 to ~4 flop/byte, still well under H100's ~20 flop/byte balance point, so the
// fused kernel stays memory-bound and its time is the minimum traffic over HBM bandwidth.
// Expected on Hopper: 201 MB at ~2.8-3.0 TB/s = ~70 us, about 3x faster than the unfused chain (a bit
// less if the baseline's intermediates partly hit in L2). % of roof is measured against the declared
// minimum bytes, so it reads directly as HBM efficiency.
// Measured (H100 80GB HBM3 VM, 2026-11-22, chapter README): 216 us -> 66.0 us, 3.28x; the fused kernel moves
// its 201 MB at 3.05 TB/s (91% of HBM peak).
#include "performance.cuh"

namespace {

__global__ void fused_epilogue_kernel(const float4* __restrict__ x, const float4* __restrict__ r,
                                      const float* __restrict__ gamma, const float* __restrict__ beta,
                                      const float* __restrict__ scale, float4* __restrict__ out, int64_t n4,
                                      int64_t cols4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = (i % cols4) * 4;
    const float4 v = x[i];
    const float4 s = r[i];
    float4 o;
    o.x = stage_scale(stage_residual(stage_gelu(stage_affine(v.x, gamma[c], beta[c])), s.x), scale[c]);
    o.y = stage_scale(stage_residual(stage_gelu(stage_affine(v.y, gamma[c + 1], beta[c + 1])), s.y), scale[c + 1]);
    o.z = stage_scale(stage_residual(stage_gelu(stage_affine(v.z, gamma[c + 2], beta[c + 2])), s.z), scale[c + 2]);
    o.w = stage_scale(stage_residual(stage_gelu(stage_affine(v.w, gamma[c + 3], beta[c + 3])), s.w), scale[c + 3]);
    out[i] = o;
  }
}

class OptimizedPerformance : public PerformanceBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t cols = ctx.param("cols"), n4 = ctx.param("rows") * cols / 4, cols4 = cols / 4;
    const auto* x = ctx.buffer("x").as<const float4>();
    auto* out = ctx.buffer("out").as<float4>();
    require_performance_shape(cols, x, out);
    fused_epilogue_kernel<<<performance_grid(ctx.device()), 256, 0, ctx.stream()>>>(
        x, ctx.buffer("residual").as<const float4>(), ctx.buffer("gamma").as<const float>(),
        ctx.buffer("beta").as<const float>(), ctx.buffer("layer_scale").as<const float>(), out, n4, cols4);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "one fused kernel, intermediates in registers"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedPerformance)
