// ch20 residual_rmsnorm, baseline: residual add and RMSNorm as two kernels.
//
// Technique: kernel 1, h = bf16(x + r), 8 elements per thread with 16-byte accesses; kernel 2, one warp per
// row, loads the row of h into registers, reduces the sum of squares and writes y = h * rstd * g.
// Why it is slow(er): h is written by the first kernel and read back by the second: 5 passes of
// 128 MiB (x, r, h written, h read, y written) instead of 4, plus a launch.
// Expected on Hopper: ~1.25x the fused kernel's time.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed):
// 223.6 us.
#include "residual_rmsnorm.cuh"

namespace {

using namespace residual_norm;

__global__ void residual_add(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ r, int64_t chunks,
                             __nv_bfloat16* __restrict__ h) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fx[8], fr[8];
  block::unpack8(reinterpret_cast<const uint4*>(x)[i], fx);
  block::unpack8(reinterpret_cast<const uint4*>(r)[i], fr);
#pragma unroll
  for (int j = 0; j < 8; ++j) fx[j] += fr[j];
  reinterpret_cast<uint4*>(h)[i] = block::pack8(fx);
}

__global__ void rmsnorm_rows(const __nv_bfloat16* __restrict__ h, const __nv_bfloat16* __restrict__ g, int64_t rows,
                             __nv_bfloat16* __restrict__ y) {
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint4* hr = reinterpret_cast<const uint4*>(h + row * kDim);
  uint4 hv[kChunks];
#pragma unroll
  for (int i = 0; i < kChunks; ++i) hv[i] = hr[lane + 32 * i];
  const float rstd = row_rstd(lane_sum_squares(hv));
  uint4* yr = reinterpret_cast<uint4*>(y + row * kDim);
  const uint4* gv = reinterpret_cast<const uint4*>(g);
#pragma unroll
  for (int i = 0; i < kChunks; ++i) yr[lane + 32 * i] = normalize8(hv[i], gv[lane + 32 * i], rstd);
}

class BaselineResidualRmsnorm : public ResidualRmsnormBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), chunks = t * kDim / 8;
    auto* h = ctx.buffer("h").as<__nv_bfloat16>();
    residual_add<<<static_cast<unsigned>((chunks + 255) / 256), 256, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("r").as<const __nv_bfloat16>(), chunks, h);
    AISP_LAUNCH_CHECK();
    rmsnorm_rows<<<warp_blocks(t), 256, 0, ctx.stream()>>>(h, ctx.buffer("g").as<const __nv_bfloat16>(), t,
                                                           ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "residual-add kernel, then RMSNorm kernel (h through HBM)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineResidualRmsnorm)
