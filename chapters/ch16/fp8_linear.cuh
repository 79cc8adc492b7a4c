// fp8_linear: a serving-sized Linear layer, Y[M][N] = X[M][K] W[N][K]^T, at BF16 (baseline) and at FP8 e4m3
// (optimized), both through cuBLASLt (ch13's LtGemm: the TN layout FP8 requires on Hopper). Shape: a
// prefill batch of M = 4096 tokens through the up-projection of a Llama-3-8B MLP (K = 4096 -> N = 14336):
// 481 GFLOP. X (bf16 activations) is dynamic; W (bf16 weights) is static, so the FP8 variant quantizes it
// once in setup() and quantizes X in run() with a per-tensor scale computed on the device. Y is bf16.
//   baseline_fp8_linear.cu    BF16 operands, FP32 accumulate, BF16 out (cuBLASLt)
//   optimized_fp8_linear.cu   e4m3 operands with per-tensor dynamic scales, FP32 accumulate, BF16 out
// Declared precision: fp8_e4m3; the BF16 baseline is the reference. Tolerance (ch13 gemm_precision's,
// derived by a host emulation of the same quantization of uniform(-1, 1) operands): the FP8 error of an
// output is a sum of K independent rounding terms, Gaussian with rms 0.0121 sqrt(K) (0.77 at K = 4096)
// against an output rms of sqrt(K)/3 (21); atol = 9 rms = 0.109 sqrt(K) = 6.98; rtol 1e-2 covers the bf16
// rounding of Y (half an ulp = 2^-9 relative, on both sides). BF16 operands add only 6.9e-4 sqrt(K) rms.
// Expected on H100: BF16 ~0.7 ms (~700 TFLOP/s), FP8 ~0.4 ms (~1300 TFLOP/s) + ~30 us to quantize X: ~1.6x.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "../ch13/lt_gemm.hpp"
#include "aisp/aisp.hpp"

inline constexpr int64_t kFp8LinearM = 4096, kFp8LinearN = 14336, kFp8LinearK = 4096;
inline constexpr size_t kFp8LinearWorkspace = size_t{32} << 20;

class Fp8LinearBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"m", kFp8LinearM}, {"n", kFp8LinearN}, {"k", kFp8LinearK}};
    w.precision = aisp::DType::fp8_e4m3;
    // Minimum traffic at the declared precision: X and W once as FP8, Y once as BF16.
    w.bytes = double(kFp8LinearM) * kFp8LinearK + double(kFp8LinearN) * kFp8LinearK + 2.0 * kFp8LinearM * kFp8LinearN;
    w.flops = 2.0 * double(kFp8LinearM) * kFp8LinearN * kFp8LinearK;
    w.items = double(kFp8LinearM);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("x", aisp::DType::bf16, {m, k});
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {m, n});
    workspace_ = ctx.scratch("lt_workspace", kFp8LinearWorkspace);
    prepare(ctx);
  }
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 0.109 * std::sqrt(double(kFp8LinearK)),
        "declared FP8 e4m3 precision: per-tensor-scaled e4m3 operands err by up to 2^-4 each; over K products "
        "the error is Gaussian with rms 0.0121 sqrt(K) (ch13's host emulation); atol = 9 rms; rtol: bf16 Y");
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;  // plan the GEMM (and quantize the static weight)
  void* workspace_ = nullptr;
  LtGemm gemm_;
};
