// cublas: C = A * B in fp32, row-major, A: m x k, B: k x n. Shared by baseline_cublas.cu (the textbook
// one-thread-per-output kernel) and optimized_cublas.cu (cublasSgemm through ctx.cublas(), whose math
// mode the harness pins to plain FP32: no TF32 tensor cores, so both variants do IEEE fp32 FMAs).
//
// Verification without loosening: A and B hold small integers (-4..4, stored as fp32). Every product is
// an integer of magnitude <= 16 and every partial sum of k = 1024 of them is an integer of magnitude
// <= 16384 < 2^24, so each one is exactly representable and every fp32 addition is exact. The result is
// then the same bits in any summation order (the naive kernel's serial loop, cuBLAS's tiles and
// split-K), and the default fp32 tolerance applies unchanged. The GEMM's cost does not depend on the
// values, so this changes nothing about the timing. (It also means TF32 would go unnoticed in the
// output: small integers are exact in TF32 too. The harness guards that separately by checking the
// cuBLAS math mode around every verified run, K16.)
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

// 2048 x 1024 x 1024: 4.3 GFLOP per run. Big enough that cuBLAS fills all 132 SMs (128 tiles of
// 128 x 128 before any split), small enough that the naive kernel stays around 1-2 ms.
inline constexpr int64_t kSgemmM = 2048, kSgemmN = 1024, kSgemmK = 1024;

inline aisp::Workload cublas_workload() {
  const double m = kSgemmM, n = kSgemmN, k = kSgemmK;
  aisp::Workload w;
  w.params = {{"m", kSgemmM}, {"n", kSgemmN}, {"k", kSgemmK}};
  w.precision = aisp::DType::f32;
  w.bytes = (m * k + k * n + m * n) * sizeof(float);  // A and B read once, C written once (beta = 0)
  w.flops = 2.0 * m * n * k;
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class CublasBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cublas_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    // Integers in [-4, 4]: see the file comment (exact sums). Keep in step with the bound 16 * k < 2^24.
    static_assert(16 * kSgemmK < (int64_t{1} << 24), "partial sums must stay exact in fp32");
    ctx.input("a", aisp::DType::f32, {m, k}, aisp::Fill::int_range(-4, 4));
    ctx.input("b", aisp::DType::f32, {k, n}, aisp::Fill::int_range(-4, 4));
    ctx.output("c", aisp::DType::f32, {m, n});
  }
};
