// cublaslt_gemm: y = x * w^T in BF16 with FP32 accumulation, x: 2048 x 1024 activations, w: 2048 x 1024
// weights (nn.Linear layout), y: 2048 x 2048 BF16. Shared by baseline_cublaslt_gemm.cu (a shared-memory
// tiled GEMM on the CUDA cores) and optimized_cublaslt_gemm.cu (cuBLASLt on the tensor cores).
#pragma once
#include <cmath>
#include <cstdint>

#include "aisp/aisp.hpp"

// 2048 x 2048 x 1024: 8.6 GFLOP. Big enough for cuBLASLt to fill 132 SMs (256 tiles of 128 x 128), small
// enough that the CUDA-core baseline stays under a millisecond.
inline constexpr int64_t kLtGemmM = 2048, kLtGemmN = 2048, kLtGemmK = 1024;

inline aisp::Workload cublaslt_gemm_workload() {
  const double m = kLtGemmM, n = kLtGemmN, k = kLtGemmK;
  aisp::Workload w;
  w.params = {{"m", kLtGemmM}, {"n", kLtGemmN}, {"k", kLtGemmK}};
  w.precision = aisp::DType::bf16;
  w.bytes = (m * k + n * k + m * n) * 2.0;  // x, w read once, y written once, 2 B each
  w.flops = 2.0 * m * n * k;
  w.items = m;
  w.item_unit = "tokens";
  return w;
}

// Both variants accumulate in FP32 and round once to BF16, but in different orders (k in sequence on the
// CUDA cores vs the tensor cores' blocked order), so the FP32 sums differ by a few units in the last place
// and a sum that sits near a BF16 rounding boundary can round to the neighbouring BF16 value: a
// difference of one BF16 ulp, at most 2^-7 of the value (BF16 keeps 8 significant bits). rtol 2^-7 (+1%)
// admits exactly that. atol covers outputs near zero, where the FP32 order difference (~sqrt(k) x 2^-24
// x |partial sums| ~ 1e-5 for k = 1024, |x|, |w| <= 1) is all there is: 1e-2 is ~1000x that and still
// ~1/1000 of the outputs' rms (sqrt(k / 9) ~ 10.7), so a wrong or missing term cannot hide under it.
inline aisp::Tolerance cublaslt_gemm_tolerance() {
  return aisp::Tolerance::loosened(
      std::ldexp(1.0, -7) * 1.01, 1e-2,
      "BF16 output: FP32 sums in a different order may round to the adjacent BF16 value (1 ulp <= 2^-7 rel); "
      "atol 1e-2 (~1/1000 of rms |y|) for near-zero outputs");
}

// The pair's base: its workload, buffers and tolerance; each variant adds only its kernels and run().
class CublasltGemmBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cublaslt_gemm_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("x", aisp::DType::bf16, {m, k});
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {m, n});
  }
  aisp::Tolerance tolerance() const override { return cublaslt_gemm_tolerance(); }
};
