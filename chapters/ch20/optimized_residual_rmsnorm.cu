// ch20 residual_rmsnorm, optimized: residual add and RMSNorm fused, one pass over the row.
//
// Technique: one warp per row; each lane loads its 16 chunks of x and r (16-byte loads), adds them,
// rounds to bf16 and keeps the 16 packed chunks of h in registers (64 registers), stores h, reduces the
// sum of squares of the rounded h exactly as the baseline does, and writes y from the registers.
// Why it is faster: h never comes back from memory: 4 passes of 128 MiB instead of 5, one launch.
// Expected on Hopper: ~1.2-1.25x.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 19 checks passed): 178.5 us
// (3.01 TB/s), 1.25x [1.23, 1.28]; outputs bit-identical.
#include "residual_rmsnorm.cuh"

namespace {

using namespace residual_norm;

__global__ void add_rmsnorm_rows(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ r,
                                 const __nv_bfloat16* __restrict__ g, int64_t rows, __nv_bfloat16* __restrict__ h,
                                 __nv_bfloat16* __restrict__ y) {
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint4* xr = reinterpret_cast<const uint4*>(x + row * kDim);
  const uint4* rr = reinterpret_cast<const uint4*>(r + row * kDim);
  uint4* hr = reinterpret_cast<uint4*>(h + row * kDim);
  uint4 hv[kChunks];
#pragma unroll
  for (int i = 0; i < kChunks; ++i) {
    float fx[8], fr[8];
    block::unpack8(xr[lane + 32 * i], fx);
    block::unpack8(rr[lane + 32 * i], fr);
#pragma unroll
    for (int j = 0; j < 8; ++j) fx[j] += fr[j];
    hv[i] = block::pack8(fx);
    hr[lane + 32 * i] = hv[i];
  }
  const float rstd = row_rstd(lane_sum_squares(hv));
  uint4* yr = reinterpret_cast<uint4*>(y + row * kDim);
  const uint4* gv = reinterpret_cast<const uint4*>(g);
#pragma unroll
  for (int i = 0; i < kChunks; ++i) yr[lane + 32 * i] = normalize8(hv[i], gv[lane + 32 * i], rstd);
}

class OptimizedResidualRmsnorm : public ResidualRmsnormBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens");
    add_rmsnorm_rows<<<warp_blocks(t), 256, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("r").as<const __nv_bfloat16>(),
        ctx.buffer("g").as<const __nv_bfloat16>(), t, ctx.buffer("h").as<__nv_bfloat16>(),
        ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "fused add + RMSNorm: one pass, h kept in registers"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedResidualRmsnorm)
