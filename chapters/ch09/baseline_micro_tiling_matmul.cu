// ch09 micro_tiling_matmul, baseline: 32 x 32 shared-memory tiles, one output per thread.
//
// Technique: the classic tiled GEMM (ch07:matmul's optimized kernel): a 32 x 32 block loads a 32 x 32 tile
// of A and of B per k-step into shared memory and each thread runs 32 FMAs, one output each.
// Why it is slow: arithmetic intensity *per shared-memory load* is ~1 FMA per load. Every FMA reads one
// operand from shared memory (b_tile[k][tx], 32 distinct words per warp) plus a broadcast (a_tile[ty][k],
// 4 k per 16 B load): ~1.25 shared-memory wavefronts per 32 FMAs. An SM moves one 128 B wavefront per
// cycle, so it feeds at most ~25 of its 128 FP32 lanes per cycle: ~20% of peak before any other cost.
// Expected on Hopper: ~10-13 TFLOP/s on H100 SXM (of ~66 TFLOP/s FP32 measured by `aisp hw fma`).
// Measured: 1.83 ms per run (9.4 TFLOP/s, 14% of peak).
#include "micro_tiling_matmul.cuh"

namespace {

constexpr int kTile = 32;

__global__ void __launch_bounds__(kTile * kTile)
    matmul_smem_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    a_tile[ty][tx] = a[row * n + k0 + tx];
    b_tile[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) acc = fmaf(a_tile[ty][k], b_tile[k][tx], acc);
    __syncthreads();
  }
  c[row * n + col] = acc;
}

class BaselineMicroTilingMatmul : public MicroTilingMatmulBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    check_micro_tiling_shape(n);
    const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(n / kTile));
    matmul_smem_tiled_kernel<<<grid, dim3(kTile, kTile), 0, ctx.stream()>>>(
        ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(), ctx.buffer("c").as<float>(),
        static_cast<int>(n));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "32x32 shared-memory tiles, one output per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineMicroTilingMatmul)
