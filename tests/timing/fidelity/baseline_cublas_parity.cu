// fidelity cublas_parity (was ch09:cublas_parity until 2026-11-28: a parity pair, not an optimization), baseline in CUDA C++:
// one cuBLAS BF16 GEMM launched from a plugin, the reference for the same GEMM launched from Python
// (optimized_cublas_parity_torch.py; the pair's story and its exact-input argument are in cublas_parity_common.py).
//
// Technique: c = a @ b, 8192^3, row-major BF16 operands and output, FP32 compute, through the harness's
// cuBLAS handle (bound to the harness stream, default math mode). Row-major c = a b is column-major
// c^T = b^T a^T, so the call passes b first with m and n swapped and no transposes: the call torch makes
// for torch.matmul(a, b), so both variants should get the same kernel from cuBLAS's heuristics.
// Why it is here: the yardstick for the Python worker's overhead, not an optimization.
// Expected on Hopper: ~1.5 ms (1.1 TFLOP at ~700 TFLOP/s). Measured 2026-11-28
// (docs/measurements/closing_calls_20261128.md): H100 80GB HBM3 1.2439 ms (call B) and 1.242 ms (call D), H200
// 1.238 ms (~890 TFLOP/s); the Python variant SAME on both GPUs (Python/C++ 0.996 in call B).
// The workload, buffers, fills and tolerance repeat cublas_parity_common.py exactly: the harness refuses a
// pair whose variants declare different workloads (and K23 different tolerances).
#include <cublas_v2.h>

#include <cstdint>

#include "aisp/aisp.hpp"

namespace {

constexpr int64_t kM = 8192, kN = 8192, kK = 8192;  // cublas_parity_common.M, N, K

class BaselineCublasParity : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double m = kM, n = kN, k = kK;
    aisp::Workload w;
    w.params = {{"m", kM}, {"n", kN}, {"k", kK}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * (m * k + k * n + m * n);
    w.flops = 2.0 * m * n * k;
    w.items = m;
    w.item_unit = "rows";
    return w;
  }

  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("a", aisp::DType::bf16, {m, k}, aisp::Fill::int_range(-4, 4));
    ctx.input("b", aisp::DType::bf16, {k, n}, aisp::Fill::int_range(-4, 4), aisp::Role::static_);
    ctx.output("c", aisp::DType::bf16, {m, n});
    ctx.cublas();  // handle and its workspace created here, not in the first measured run
  }

  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("m")), n = static_cast<int>(ctx.param("n")), k = static_cast<int>(ctx.param("k"));
    const float one = 1.0f, zero = 0.0f;
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, ctx.buffer("b").data, CUDA_R_16BF, n,
                                   ctx.buffer("a").data, CUDA_R_16BF, k, &zero, ctx.buffer("c").data, CUDA_R_16BF, n,
                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

  std::string technique() const override { return "cuBLAS BF16 GEMM (cublasGemmEx) launched from a C++ plugin"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCublasParity)
