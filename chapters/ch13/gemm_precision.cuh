// gemm_precision: one Linear layer's forward GEMM, C[M][N] = A[M][K] * B[N][K]^T, 8192^3 (1.1 TFLOP), with
// FP32 activations A (dynamic) and FP32 master weights B (static), FP32 output C, in three precisions:
//
//   baseline_gemm_precision.cu         FP32 operands, FP32 math (cuBLASLt, CUBLAS_COMPUTE_32F, no TF32)
//   optimized_gemm_precision_bf16.cu   BF16 operands (A cast in run(), B once in setup()), FP32 accumulate
//   optimized_gemm_precision_fp8.cu    FP8 e4m3 operands with per-tensor scales (A's amax and quantization
//                                      in run(), B's in setup()), FP32 accumulate
//
// Declared precision: fp8_e4m3. The pair's contract is "a Linear layer computed at FP8 accuracy"; the
// FP32 baseline is the reference, and each variant's measured error is in the results (max_abs_error).
// Tolerance: e4m3 keeps 3 mantissa bits, so a quantized operand is off by up to 2^-4 of its value; over
// K products of random sign the errors add like a random walk. A host emulation of exactly this
// quantization (per-tensor amax scaling of uniform(-1, 1) operands, 128 x 128 outputs, K = 8192) gave an
// error rms of 1.09 = 0.0121 sqrt(K) against an output rms of 30.2 = sqrt(K) / 3 (max 4.6 over 16 Ki
// outputs; BF16: rms 0.063, max 0.24). The error is a sum of K independent terms, so Gaussian: atol = 9 rms
// = 0.109 sqrt(K) (9.9 at K = 8192) keeps a false alarm below 1e-18 per element over 64 M outputs. It is
// a third of the output rms: a single wrong product (|ab| <= 1) hides under it, which is what declaring
// FP8 means; the declared precision makes the harness accept it (K23) and the report shows it.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "lt_gemm.hpp"

inline int64_t gemm_precision_m() { return aisp::axis("m", 8192); }
inline int64_t gemm_precision_n() { return aisp::axis("n", 8192); }
inline int64_t gemm_precision_k() { return aisp::axis("k", 8192); }

inline constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;  // cuBLASLt workspace (this pair and _resident)

// The declared-FP8 tolerance of this pair and of gemm_precision_resident (the derivation above): rtol 1e-2,
// atol = 9 rms of the e4m3 quantization error = 0.109 sqrt(K). `note` is appended to the reason.
inline aisp::Tolerance fp8_e4m3_gemm_tolerance(int64_t k, const std::string& note = "") {
  return aisp::Tolerance::loosened(
      1e-2, 0.109 * std::sqrt(double(k)),
      "declared FP8 e4m3 precision: per-tensor-scaled e4m3 operands err by up to 2^-4 each; over K products "
      "the error is Gaussian with rms 0.0121 sqrt(K) (host emulation); atol = 9 rms" +
          note);
}

// The base of the ch13 cuBLASLt GEMM pairs (this one and gemm_precision_resident.cuh): C[M][N] = A[M][K] B[N][K]^T
// from FP32 A and B (B static), declared at FP8 e4m3 precision. Spec says what differs between the two: the shape
// (m(), n(), k(): the axes and their defaults), whether A is static too (kAStatic), C's type and size (kC,
// kCBytes), the name in the shape error and the note on the tolerance's reason (kName, kTolNote).
template <class Spec>
class LtGemmPairBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t m = Spec::m(), n = Spec::n(), k = Spec::k();
    aisp::Workload w;
    w.params = {{"m", m}, {"n", n}, {"k", k}};
    w.precision = aisp::DType::fp8_e4m3;
    // Minimum traffic at the declared precision: A and B read once as FP8, C written once (kCBytes per element).
    w.bytes = double(m) * k + double(n) * k + Spec::kCBytes * double(m) * n;
    w.flops = 2.0 * double(m) * double(n) * double(k);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % 16 || n % 16 || k % 16) throw std::runtime_error(std::string(Spec::kName) + ": m, n, k must be multiples of 16");
    ctx.input("a", aisp::DType::f32, {m, k}, aisp::Fill::uniform(-1, 1),
              Spec::kAStatic ? aisp::Role::static_ : aisp::Role::dynamic);
    ctx.input("b", aisp::DType::f32, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("c", Spec::kC, {m, n});
    workspace_ = ctx.scratch("lt_workspace", kLtWorkspaceBytes);
    prepare(ctx);
  }
  aisp::Tolerance tolerance() const override { return fp8_e4m3_gemm_tolerance(Spec::k(), Spec::kTolNote); }

 protected:
  virtual void prepare(aisp::Context&) = 0;  // cast or quantize the static operand(s), plan the GEMM
  void* workspace_ = nullptr;
  LtGemm gemm_;
};

// This pair: 8192^3, A dynamic (cast or quantized in run()), FP32 C.
struct GemmPrecisionSpec {
  static int64_t m() { return gemm_precision_m(); }
  static int64_t n() { return gemm_precision_n(); }
  static int64_t k() { return gemm_precision_k(); }
  static constexpr const char* kName = "gemm_precision";
  static constexpr bool kAStatic = false;
  static constexpr aisp::DType kC = aisp::DType::f32;
  static constexpr double kCBytes = 4.0;
  static constexpr const char* kTolNote = "";
};
using GemmPrecisionBase = LtGemmPairBase<GemmPrecisionSpec>;
