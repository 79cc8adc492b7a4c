// ch08 independent_accumulators, baseline: Horner's rule - one dependent FMA chain per evaluation.
//
// Technique: acc = c[127]; for k = 126..0: acc = fma(acc, x, c[k]). 127 FMAs, each needing the previous
// result.
// Why it is slow: an FFMA's result is ready 4 cycles after issue on Hopper, so one warp can issue one FMA
// of the chain every 4 cycles. The coefficients in registers cost ~140 registers per thread, so the SM
// holds one 256-thread block: 2 warps per scheduler. The scheduler can issue one instruction per cycle
// but has at most 2 ready FMAs per 4 cycles - it idles half the time, and more warps cannot come to the
// rescue because the registers that make the kernel fast (no coefficient reloads) are what limit them.
// Expected on Hopper: at most 0.5 FMA/cycle per scheduler: 65536 x 512 x 127 FMAs / (528 x 32 x 0.5 x
// 1.98 GHz) ~ 0.26 ms, ~30 TFLOP/s of the ~67 FP32 peak (measured on an H100 SXM: 0.35 ms, 24 TFLOP/s -
// the chain plus the 256 blocks' 2-wave tail on 132 SMs).
#include "independent_accumulators.cuh"

namespace {

struct HornerChain {
  __device__ __forceinline__ float operator()(const float (&c)[kPolyCoeffs], float x) const {
    float acc = c[kPolyCoeffs - 1];
#pragma unroll
    for (int k = kPolyCoeffs - 2; k >= 0; --k) acc = fmaf(acc, x, c[k]);
    return acc;
  }
};

__global__ void __launch_bounds__(kPolyBlock)
polynomial_peak_horner_kernel(const float* __restrict__ coefficients_t, const float* __restrict__ points,
                              float* __restrict__ peak, int64_t m, int64_t p) {
  polynomial_peak_body(coefficients_t, points, peak, m, p, HornerChain{});
}

class BaselineIndependentAccumulators : public IndependentAccumulatorsBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("polynomials"), p = ctx.param("points");
    polynomial_peak_horner_kernel<<<static_cast<unsigned>((m + kPolyBlock - 1) / kPolyBlock), kPolyBlock, 0,
                                    ctx.stream()>>>(ctx.buffer("coefficients_t").as<const float>(),
                                                    ctx.buffer("points").as<const float>(),
                                                    ctx.buffer("peak").as<float>(), m, p);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "Horner: one 127-long dependent FMA chain"; }
};

}  // namespace

AISP_BENCHMARK(BaselineIndependentAccumulators)
