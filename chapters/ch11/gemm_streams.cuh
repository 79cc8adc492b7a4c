// gemm_streams: 16 independent small GEMMs, C[g] = A[g] B[g] with A[g] 256 x 1024, B[g] 1024 x 256, fp32,
// row-major: the shape of per-expert or per-head projections that are too small to fill a GPU one at a
// time. Shared by baseline_gemm_streams.cu (the 16 GEMMs one after another on the harness stream) and
// optimized_gemm_streams.cu (spread over 8 streams so they run concurrently). Same kernel, same tiles,
// same summation order: outputs match bit for bit.
//
// One GEMM is a 4 x 4 grid of 64 x 64 tiles = 16 thread blocks: 16 of H100 SXM's 132 SMs. That is the
// pair's point: a kernel that cannot fill the GPU leaves ~88% of it idle unless other kernels run beside it.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kGemmStreamsCount = 16, kGemmStreamsM = 256, kGemmStreamsN = 256, kGemmStreamsK = 1024;

namespace {

constexpr int kTile = 64, kTileK = 16;

// Classic shared-memory tiling: a 64 x 64 tile of C per block of 256 threads, each thread a 4 x 4 register
// tile; A and B stream through shared memory 16 columns/rows at a time. Dimensions are multiples of the
// tiles (static_assert below), so there are no edge cases.
__global__ void __launch_bounds__(256) gemm_streams_tile(const float* __restrict__ a, const float* __restrict__ b,
                                                         float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[kTileK][kTile + 4];  // A tile stored transposed: as[kk][row]
  __shared__ float bs[kTileK][kTile];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < k; k0 += kTileK) {
    for (int e = threadIdx.x; e < kTile * kTileK; e += 256) {
      const int r = e / kTileK, kk = e % kTileK;  // A: 64 rows x 16 cols
      as[kk][r] = a[static_cast<int64_t>(row0 + r) * k + k0 + kk];
      const int kb = e / kTile, cb = e % kTile;  // B: 16 rows x 64 cols
      bs[kb][cb] = b[static_cast<int64_t>(k0 + kb) * n + col0 + cb];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTileK; ++kk) {
      float ra[4], rb[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) ra[i] = as[kk][ty * 4 + i], rb[i] = bs[kk][tx * 4 + i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = __fmaf_rn(ra[i], rb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) c[static_cast<int64_t>(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}

}  // namespace

class GemmStreamsBase : public aisp::Benchmark {
 public:
  static_assert(kGemmStreamsM % kTile == 0 && kGemmStreamsN % kTile == 0 && kGemmStreamsK % kTileK == 0);

  aisp::Workload workload() const override {
    const double g = kGemmStreamsCount, m = kGemmStreamsM, n = kGemmStreamsN, k = kGemmStreamsK;
    aisp::Workload w;
    w.params = {{"gemms", kGemmStreamsCount}, {"m", kGemmStreamsM}, {"n", kGemmStreamsN}, {"k", kGemmStreamsK}};
    w.precision = aisp::DType::f32;
    w.bytes = g * (m * k + k * n + m * n) * sizeof(float);
    w.flops = g * 2.0 * m * n * k;
    w.items = g;
    w.item_unit = "GEMMs";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t g = ctx.param("gemms"), m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("a", aisp::DType::f32, {g, m, k});
    ctx.input("b", aisp::DType::f32, {g, k, n});
    ctx.output("c", aisp::DType::f32, {g, m, n});
  }

 protected:
  static void gemm(aisp::Context& ctx, int64_t i, cudaStream_t s) {
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n")), k = static_cast<int>(ctx.param("k"));
    const float* a = ctx.buffer("a").as<const float>() + i * m * k;
    const float* b = ctx.buffer("b").as<const float>() + i * k * n;
    float* c = ctx.buffer("c").as<float>() + i * m * n;
    gemm_streams_tile<<<dim3(n / kTile, m / kTile), 256, 0, s>>>(a, b, c, m, n, k);
    AISP_LAUNCH_CHECK();
  }
};
