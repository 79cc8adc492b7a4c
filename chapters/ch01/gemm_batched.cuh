// gemm_batched: C[b] = A[b] * B[b] for a batch of small row-major FP32 matrices (A: m x k, B: k x n,
// C: m x n), the shape of per-head attention projections or per-expert MLP slices. Shared by
// baseline_gemm_batched.cu and optimized_gemm_batched.cu, which differ only in how they call cuBLAS.
#pragma once
#include <cmath>
#include <limits>
#include <string>

#include "aisp/aisp.hpp"

// 256 GEMMs of 128 x 128 x 128: 1.07 GFLOP and 48 MiB per run. One such GEMM is only 4 output tiles of
// 64 x 64, far too little work to fill 132 SMs, which is exactly the regime where batching matters.
inline constexpr int64_t kGemmBatch = 256;
inline constexpr int64_t kGemmM = 128, kGemmN = 128, kGemmK = 128;

inline aisp::Workload gemm_batched_workload() {
  const double b = kGemmBatch, m = kGemmM, n = kGemmN, k = kGemmK;
  aisp::Workload w;
  w.params = {{"batch", kGemmBatch}, {"m", kGemmM}, {"n", kGemmN}, {"k", kGemmK}};
  w.precision = aisp::DType::f32;
  w.bytes = b * (m * k + k * n + m * n) * sizeof(float);  // A and B read once, C written once (beta = 0)
  w.flops = 2.0 * b * m * n * k;
  w.items = b;
  w.item_unit = "gemms";
  return w;
}

// Why the default fp32 tolerance (rtol 1e-5, atol 1e-8) cannot hold here: cuBLAS picks its kernel per
// call shape, and a lone 128^3 GEMM (4 tiles for 132 SMs) is a natural split-K candidate while the
// batched call is not, so the two variants may sum each length-k dot product in different orders.
// Neither is wrong, but the results differ by rounding, and for outputs near zero (C is a sum of k
// products of either sign, so |C| << 1 happens for many of the 4 Mi outputs) the difference exceeds
// 1e-5 * |C| + 1e-8.
// The bound: for any summation order in which each product passes through at most k roundings (serial,
// blocked, split-K, tree), |fl(C_ij) - C_ij| <= gamma_k * sum_p |a_ip||b_pj|, gamma_k = k u / (1 - k u),
// u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, sec. 3.1). Two such results differ
// by at most twice that, and with |a|, |b| <= 1 the sum is at most k, so
//   |C_baseline - C_optimized| <= 2 * gamma_k * k   (k = 128: 1.95e-3).
// That is the tightest absolute tolerance the bound allows; the default rtol stays. (Typical order
// differences are ~sqrt(k) * u * |C| ~ 3e-6, so this only fails for real errors.) Silent TF32 (10-bit
// mantissa) would still fail it: rounding each operand to TF32 (~2^-11 relative) gives output errors of
// ~1.5e-3 rms over k = 128 terms (C has rms sqrt(k/9) ~ 3.8), so about a fifth of the 4 Mi outputs, and
// the largest error by a factor of ~4, exceed the tolerance.
inline aisp::Tolerance gemm_batched_tolerance() {
  const double u = std::ldexp(1.0, -24);  // fp32 unit roundoff
  const double k = static_cast<double>(kGemmK);
  const double gamma_k = k * u / (1.0 - k * u);
  return aisp::Tolerance::loosened(
      1e-5, 2.0 * gamma_k * k,
      "cuBLAS may sum the k=128 dot products in a different order for the loop and the batched call; "
      "FP32 bound |dC| <= 2*gamma_k*sum|a||b| <= 2*gamma_k*k = 1.95e-3 for |a|,|b| <= 1 (Higham 3.1)");
}

// The pair's base: its workload, buffers and tolerance; each variant adds only its kernels and run().
class GemmBatchedBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return gemm_batched_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t batch = ctx.param("batch"), m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    // |a|, |b| <= 1: the tolerance above is derived from this bound, so keep the two in step.
    ctx.input("a", aisp::DType::f32, {batch, m, k}, aisp::Fill::uniform(-1, 1));
    ctx.input("b", aisp::DType::f32, {batch, k, n}, aisp::Fill::uniform(-1, 1));
    ctx.output("c", aisp::DType::f32, {batch, m, n});
  }
  aisp::Tolerance tolerance() const override { return gemm_batched_tolerance(); }
};
