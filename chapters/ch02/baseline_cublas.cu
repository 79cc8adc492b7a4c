// ch02 cublas, baseline: the textbook GEMM kernel, one thread per output element.
//
// Technique: thread (row, col) loops over k, reading A[row][p] and B[p][col] from global memory and
// accumulating one fp32 FMA per iteration. Blocks are 32 x 8 with threadIdx.x along a row of C, so a
// warp's B loads are one coalesced 128 B line and its A load is one broadcast address.
// Why it is slow: there is no reuse outside the caches. Each FMA needs two loads, i.e. 8 bytes through
// L1 per 2 flops; an SM's L1 delivers ~128 B/clk, so at best ~32 FMA/clk/SM of its 128 FP32 lanes can
// be fed, and in practice the load latency and the L1 tag lookups cap it lower. A is read n times and B
// m times overall (4.3 G loads for 2.1 G FMAs). Hopper's roof for fp32 is ~67 TFLOP/s (132 SMs x 128
// FMA/clk x 2 x ~1.98 GHz); this kernel lives at a few percent of it.
// Expected on Hopper: ~2.5-4 TFLOP/s, i.e. ~1.1-1.7 ms for the 4.3 GFLOP.
#include "cublas.cuh"

namespace {

__global__ void naive_sgemm_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                   int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc = fmaf(a[static_cast<int64_t>(row) * k + p], b[static_cast<int64_t>(p) * n + col], acc);
  c[static_cast<int64_t>(row) * n + col] = acc;
}

class BaselineCublas : public CublasBase {
 public:
  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n"));
    const int k = static_cast<int>(ctx.param("k"));
    const dim3 block(32, 8);
    const dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
    naive_sgemm_kernel<<<grid, block, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(),
                                                         ctx.buffer("b").as<const float>(),
                                                         ctx.buffer("c").as<float>(), m, n, k);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "naive fp32 GEMM: one thread per output, operands from global memory"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCublas)
