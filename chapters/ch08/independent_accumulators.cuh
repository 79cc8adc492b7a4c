// independent_accumulators: each thread owns a degree-127 polynomial (128 coefficients, e.g. a
// per-sensor or per-channel response curve) and finds its largest value over a shared grid of 512
// sample points. Evaluating p(x) = sum_k c_k x^k is a reduction over k; the pair is about how that
// reduction is chained. Shared by baseline_independent_accumulators.cu (Horner's rule: one dependent
// FMA chain of 127 steps) and optimized_independent_accumulators.cu (the same sum split into four
// Horner chains in x^4, combined at the end).
//
// Why this setting exposes the chain: the 128 coefficients live in registers (they are reused for all
// 512 points), so a thread needs ~140 registers and only one 256-thread block fits per SM: 8 warps, 2
// per scheduler. The operands of every FMA are registers (coefficient, x, accumulator) - no memory feed -
// so the only limit left is how fast dependent FMAs can follow each other.
#pragma once
#include <cmath>

#include "aisp/aisp.hpp"

inline constexpr int64_t kPolyThreads = 65536;  // polynomials (one per thread)
inline constexpr int64_t kPolyPoints = 512;     // sample points shared by all polynomials
inline constexpr int kPolyCoeffs = 128;         // degree 127
inline constexpr int kPolyBlock = 256;

inline aisp::Workload independent_accumulators_workload() {
  aisp::Workload w;
  w.params = {{"polynomials", kPolyThreads}, {"points", kPolyPoints}, {"coefficients", kPolyCoeffs}};
  w.precision = aisp::DType::f32;
  w.bytes = (static_cast<double>(kPolyThreads) * kPolyCoeffs + kPolyPoints + kPolyThreads) * sizeof(float);
  w.flops = 2.0 * static_cast<double>(kPolyThreads) * kPolyPoints * (kPolyCoeffs - 1);  // Horner's FMAs
  w.items = static_cast<double>(kPolyThreads) * kPolyPoints;
  w.item_unit = "evaluations";
  return w;
}

// Why the default fp32 tolerance cannot hold: the split evaluation rounds differently from Horner's rule.
// Horner's rule for a degree-n polynomial satisfies |fl(p) - p| <= gamma_2n * sum_k |c_k| |x|^k (Higham,
// Accuracy and Stability of Numerical Algorithms, sec. 5.1), gamma_m = m u / (1 - m u), u = 2^-24. The
// split form evaluates four degree-31 Horner chains in y = x^4 (2 roundings for y) and adds
// c-chain * x^j (up to 2 roundings for x^j, 1 for the product) with 3 additions, so each term passes
// through fewer than 2n + 8 roundings and its error is within gamma_{2n+8} * sum_k |c_k| |x|^k. The two
// results differ by at most the sum of both bounds, and |c|, |x| <= 1 bound the sum by n + 1 = 128:
// |peak_baseline - peak_optimized| <= 2 gamma_262 * 128 = 4.0e-3 (a max over points moves no more than the
// largest value change). Typical differences are ~sqrt(n) u |p| ~ 1e-6.
inline aisp::Tolerance independent_accumulators_tolerance() {
  const double u = std::ldexp(1.0, -24);
  const double m = 2.0 * (kPolyCoeffs - 1) + 8.0;
  const double gamma = m * u / (1.0 - m * u);
  return aisp::Tolerance::loosened(
      1e-5, 2.0 * gamma * kPolyCoeffs,
      "four Horner chains in x^4 round differently from one Horner chain; FP32 bound |d peak| <= "
      "2*gamma_262*sum|c_k||x|^k <= 2*gamma_262*128 = 4.0e-3 for |c|,|x| <= 1 (Higham 5.1)");
}

// The pair's base: its workload, buffers and tolerance; each variant adds only its kernels and run().
class IndependentAccumulatorsBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return independent_accumulators_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("polynomials"), p = ctx.param("points"), k = ctx.param("coefficients");
    // |c|, |x| <= 1: the tolerance above is derived from this bound, so keep the two in step.
    ctx.input("coefficients_t", aisp::DType::f32, {k, m}, aisp::Fill::uniform(-1, 1));  // [k][polynomial]
    ctx.input("points", aisp::DType::f32, {p}, aisp::Fill::uniform(-1, 1));
    ctx.output("peak", aisp::DType::f32, {m});
  }
  aisp::Tolerance tolerance() const override { return independent_accumulators_tolerance(); }
};

// The kernel skeleton both variants share: coefficients into registers, the 512 points into shared
// memory, then Evaluate(c, x) at every point, keeping the max.
template <class Evaluate>
__device__ __forceinline__ void polynomial_peak_body(const float* __restrict__ coefficients_t,
                                                     const float* __restrict__ points, float* __restrict__ peak,
                                                     int64_t m, int64_t p, Evaluate evaluate) {
  __shared__ float xs[kPolyPoints];
  for (int64_t i = threadIdx.x; i < p && i < kPolyPoints; i += blockDim.x) xs[i] = points[i];
  __syncthreads();
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= m) return;
  float c[kPolyCoeffs];
#pragma unroll
  for (int k = 0; k < kPolyCoeffs; ++k) c[k] = coefficients_t[k * m + t];  // coalesced over polynomials
  float best = -INFINITY;
  const int points_here = static_cast<int>(p < kPolyPoints ? p : kPolyPoints);
  // Kept rolled in both variants: interleaving two points would also give independent chains (the same
  // idea applied across evaluations); this pair isolates the accumulators within one evaluation.
#pragma unroll 1
  for (int i = 0; i < points_here; ++i) best = fmaxf(best, evaluate(c, xs[i]));
  peak[t] = best;
}
