// ch01 gemm_batched, baseline: a host loop of `batch` separate cublasSgemm calls.
//
// Technique: the obvious code - for each of the 256 matrices, one cublasSgemm on the harness stream.
// Why it is slow: each call is a separate kernel launch (plus cuBLAS's per-call heuristic lookup and
// argument checks), costing a few microseconds of host time, and each kernel computes only 4 tiles of
// 64 x 64 on a GPU with 132 SMs, so ~97% of the SMs idle while it runs. The GPU time is therefore set by
// 256 x (launch overhead + small-kernel latency), not by arithmetic: ~1.07 GFLOP that the H100 SXM could
// do in ~20 us at its 67 TFLOP/s FP32 (non-tensor) peak takes on the order of 1 ms.
// Expected on Hopper: ~3-5 us per GEMM, ~0.8-1.3 ms per run, i.e. 1-2% of FP32 peak.
#include "gemm_batched.cuh"

namespace {

class BaselineGemmBatched : public GemmBatchedBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t batch = ctx.param("batch");
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n"));
    const int k = static_cast<int>(ctx.param("k"));
    const float* a = ctx.buffer("a").as<const float>();
    const float* b = ctx.buffer("b").as<const float>();
    float* c = ctx.buffer("c").as<float>();
    const float alpha = 1.0f, beta = 0.0f;
    // cuBLAS is column-major; a row-major X is the column-major X^T. So compute C^T = B^T * A^T, i.e. pass
    // B first with the (n, m, k) shape - no transposes, no copies.
    for (int64_t i = 0; i < batch; ++i) {
      AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                                    b + i * k * n, n,   // B[i]: row-major k x n
                                    a + i * m * k, k,   // A[i]: row-major m x k
                                    &beta, c + i * m * n, n));
    }
  }

  std::string technique() const override { return "host loop of 256 cublasSgemm calls"; }
};

}  // namespace

AISP_BENCHMARK(BaselineGemmBatched)
