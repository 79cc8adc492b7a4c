// ch09 cublaslt_gemm, baseline: BF16 GEMM on the CUDA cores, 32 x 32 shared-memory tiles.
//
// Technique: each 32 x 32 block stages a 32 x 32 tile of x and of w per k-step (BF16 loads along k,
// converted to FP32 in shared memory, w's tile padded to 33 columns), then each thread runs 32 FP32 FMAs
// for its one output and finally rounds it to BF16. This is the honest hand-written kernel (coalesced,
// conflict-free), without tensor cores.
// Why it is slow: it runs on the FP32 pipe (H100 SXM: ~66 TFLOP/s non-tensor vs ~990 TFLOP/s dense BF16
// on the tensor cores, 15x), and one output per thread keeps it at ~1 FMA per shared-memory load, ~20% of
// even the FP32 pipe (see ch09:micro_tiling_matmul).
// Expected on Hopper: ~10-13 TFLOP/s on H100 SXM, ~0.65-0.9 ms for the 8.6 GFLOP. Measured: 1.22 ms
// (7.0 TFLOP/s): the BF16->FP32 conversions and half-line (64 B) BF16 tile loads cost more than estimated.
#include <cuda_bf16.h>

#include <stdexcept>

#include "cublaslt_gemm.cuh"

namespace {

constexpr int kTile = 32;

__global__ void __launch_bounds__(kTile * kTile)
    linear_bf16_tiled_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                             __nv_bfloat16* __restrict__ y, int n, int k) {
  __shared__ float x_tile[kTile][kTile + 1];
  __shared__ float w_tile[kTile][kTile + 1];  // read as w_tile[tx][kk]: +1 spreads lanes over 32 banks
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    x_tile[ty][tx] = __bfloat162float(x[static_cast<int64_t>(m0 + ty) * k + k0 + tx]);
    w_tile[ty][tx] = __bfloat162float(w[static_cast<int64_t>(n0 + ty) * k + k0 + tx]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTile; ++kk) acc = fmaf(x_tile[ty][kk], w_tile[tx][kk], acc);
    __syncthreads();
  }
  y[static_cast<int64_t>(m0 + ty) * n + n0 + tx] = __float2bfloat16_rn(acc);
}

class BaselineCublasltGemm : public CublasltGemmBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % kTile || n % kTile || k % kTile) throw std::runtime_error("cublaslt_gemm: sizes must be multiples of 32");
    const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(m / kTile));
    linear_bf16_tiled_kernel<<<grid, dim3(kTile, kTile), 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("w").as<const __nv_bfloat16>(),
        ctx.buffer("y").as<__nv_bfloat16>(), static_cast<int>(n), static_cast<int>(k));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "CUDA-core BF16 GEMM, 32x32 shared-memory tiles"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCublasltGemm)
