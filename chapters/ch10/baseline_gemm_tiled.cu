// ch10 gemm_tiled, baseline: BF16 GEMM on the CUDA cores, 128 x 128 shared-memory tiles, 8 x 8 per thread.
//
// Technique: the classic register-blocked SGEMM structure with BF16 operands. A 256-thread block stages a
// 128 x 16 slice of A and of B per K-step (16-byte BF16 loads, converted to FP32 and stored k-major in
// shared memory, rows padded by 4 floats), then every thread accumulates an 8 x 8 block of C in FP32
// registers from float4 shared-memory reads: 64 FMAs per 4 vector loads. One output rounding to BF16.
// This is a well-written kernel without tensor cores: coalesced global loads, conflict-free float4 reads,
// 8x reuse of every shared-memory value from registers.
// Why it is slow: every multiply-add is an FP32 FMA on the CUDA cores: H100 SXM peaks at ~67 TFLOP/s
// there vs ~990 TFLOP/s of dense BF16 tensor-core math, and a single-buffered tile loop stalls on every
// global load.
// Expected on Hopper: ~20-35 TFLOP/s at 4096^3 (4-7 ms). Measured (H100 SXM, harness cold mode, 2026-11-25):
// 3.098 ms, 44.4 TFLOP/s (2/3 of the FP32 FMA peak; the register blocking does better than feared). 8192^3:
// ~24.6 ms.
#include <cuda_bf16.h>

#include "gemm_tiled.cuh"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 16, kThreads = 256, kPad = 4;

__global__ void __launch_bounds__(kThreads)
    gemm_cuda_core_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                          __nv_bfloat16* __restrict__ c, int N, int K) {
  __shared__ __align__(16) float As[kBK][kBM + kPad];  // As[k][m]: the A tile, k-major
  __shared__ __align__(16) float Bs[kBK][kBN + kPad];  // Bs[k][n]
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int lr = tid / 2, lk = (tid % 2) * 8;  // this thread loads 8 consecutive k of row lr
  const __nv_bfloat16* a_row = a + static_cast<int64_t>(m0 + lr) * K + lk;
  const __nv_bfloat16* b_row = b + static_cast<int64_t>(n0 + lr) * K + lk;

  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    const uint4 av = *reinterpret_cast<const uint4*>(a_row + k0);
    const uint4 bv = *reinterpret_cast<const uint4*>(b_row + k0);
    const __nv_bfloat16* ah = reinterpret_cast<const __nv_bfloat16*>(&av);
    const __nv_bfloat16* bh = reinterpret_cast<const __nv_bfloat16*>(&bv);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      As[lk + j][lr] = __bfloat162float(ah[j]);
      Bs[lk + j][lr] = __bfloat162float(bh[j]);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[kk][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk][64 + tx * 4]);
      const float av8[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv8[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av8[i], bv8[j], acc[i][j]);
    }
    __syncthreads();
  }
  // Rows ty*4 + {0..3} and 64 + ty*4 + {0..3}; columns tx*4 + {0..3} and 64 + tx*4 + {0..3}.
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = n0 + h * 64 + tx * 4;
      __nv_bfloat162* dst = reinterpret_cast<__nv_bfloat162*>(c + static_cast<int64_t>(row) * N + col);
      dst[0] = __floats2bfloat162_rn(acc[i][4 * h], acc[i][4 * h + 1]);
      dst[1] = __floats2bfloat162_rn(acc[i][4 * h + 2], acc[i][4 * h + 3]);
    }
  }
}

class BaselineGemmTiled : public GemmTiledBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    const dim3 grid(static_cast<unsigned>(n / kBN), static_cast<unsigned>(m / kBM));
    gemm_cuda_core_kernel<<<grid, kThreads, 0, ctx.stream()>>>(ctx.buffer("a").as<const __nv_bfloat16>(),
                                                               ctx.buffer("b").as<const __nv_bfloat16>(),
                                                               ctx.buffer("c").as<__nv_bfloat16>(),
                                                               static_cast<int>(n), static_cast<int>(k));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "CUDA-core FP32 FMAs, 128x128 shared-memory tiles, 8x8 per thread"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    require_multiple("gemm_tiled baseline", ctx.param("m"), ctx.param("n"), ctx.param("k"), kBM, kBN, kBK);
  }
};

}  // namespace

AISP_BENCHMARK(BaselineGemmTiled)
