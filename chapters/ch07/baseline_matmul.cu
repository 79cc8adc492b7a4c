// ch07 matmul, baseline: naive FP32 GEMM, every operand read from global memory.
//
// Technique: thread (x, y) computes C[y][x] = sum_k A[y][k] * B[k][x]. Lanes of a warp have consecutive x,
// so the B load of a warp is one coalesced 128 B line and the A load is a single broadcast address: the
// well-behaved naive kernel, not the uncoalesced one.
// Why it is slow: each FMA needs two loads and every one goes through L1 (tag lookup, address
// translation): per k a warp issues 2 global loads for 32 FMAs, 67 M load instructions for 2.15 GFLOP.
// L1 reuse is poor: a 32 x 8 block walks a 128 B-wide strip of B (n lines, 128 KiB) and 8 rows of A
// (32 KiB), and no other block on the SM shares the B strip, so ~160 KiB per block come from L2:
// 4096 blocks x 160 KiB = 655 MB of L2->L1 traffic per run, and loads stall on L2 latency (~280 cycles).
// Expected on Hopper: a few TFLOP/s on H100 SXM (~5-10% of the 67 TFLOP/s FP32 peak). Measured: 336 us
// (6.4 TFLOP/s) - L1's 256 KiB catches more of the B strip than the estimate above assumes.
#include "matmul.cuh"

namespace {

constexpr int kRowsPerBlock = 8;  // 32 x 8 = 256 threads: one warp per output row segment

__global__ void __launch_bounds__(kMatmulTile * kRowsPerBlock)
    matmul_naive_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                        int n) {
  const int col = blockIdx.x * kMatmulTile + threadIdx.x;
  const int row = blockIdx.y * kRowsPerBlock + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc = fmaf(a[row * n + k], b[k * n + col], acc);
  c[row * n + col] = acc;
}

class BaselineMatmul : public MatmulBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    check_matmul_shape(n);
    const dim3 block(kMatmulTile, kRowsPerBlock);
    const dim3 grid(static_cast<unsigned>(n / kMatmulTile), static_cast<unsigned>(n / kRowsPerBlock));
    matmul_naive_kernel<<<grid, block, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(),
                                                          ctx.buffer("b").as<const float>(),
                                                          ctx.buffer("c").as<float>(), static_cast<int>(n));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "naive: one output per thread, operands from global memory"; }
};

}  // namespace

AISP_BENCHMARK(BaselineMatmul)
