// ch08 independent_accumulators, baseline: each dot product is one dependent FMA chain.
//
// Technique: acc = fma(q[d], k[d], acc) for d = 0..127 - the natural loop, 128 FMAs that each wait for
// the previous one (4-cycle FMA latency on Hopper).
// Why it is slow: holding a 128-float query in registers costs ~140+ registers per thread, so only one
// 256-thread block fits per SM (65536 / (140 x 256) < 2): 8 warps, 2 per scheduler. A scheduler can issue
// one instruction per cycle, but each of its 2 warps can issue an FMA only every 4 cycles (the chain), so
// it issues at best 2 FMAs per 4 cycles - half its rate. Occupancy cannot hide the latency because the
// registers that make the kernel fast (the query stays in registers, no reloads) are what limit it.
// Expected on Hopper: ~0.5 FMA/cycle/scheduler -> 65536 x 512 x 128 FMAs / (528 x 32 x 0.5 x 1.98 GHz)
// ~ 0.26 ms (~33 TFLOP/s of the 67 TFLOP/s FP32 peak, counting 2 flops per FMA).
#include "independent_accumulators.cuh"

namespace {

struct ChainedDot {
  __device__ __forceinline__ float operator()(const float (&q)[kMipsDim], const float4* key) const {
    float acc = 0.0f;
#pragma unroll
    for (int d = 0; d < kMipsDim / 4; ++d) {
      const float4 k = key[d];  // broadcast: every lane reads the same 16 bytes
      acc = fmaf(q[4 * d + 0], k.x, acc);
      acc = fmaf(q[4 * d + 1], k.y, acc);
      acc = fmaf(q[4 * d + 2], k.z, acc);
      acc = fmaf(q[4 * d + 3], k.w, acc);
    }
    return acc;
  }
};

__global__ void __launch_bounds__(kMipsThreads)
mips_chained_kernel(const float* __restrict__ queries_t, const float* __restrict__ keys, float* __restrict__ best,
                    int64_t m, int64_t n) {
  mips_body(queries_t, keys, best, m, n, ChainedDot{});
}

class BaselineIndependentAccumulators : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return independent_accumulators_workload(); }
  void setup(aisp::Context& ctx) override { declare_independent_accumulators_buffers(ctx); }

  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("queries"), n = ctx.param("keys");
    mips_chained_kernel<<<static_cast<unsigned>((m + kMipsThreads - 1) / kMipsThreads), kMipsThreads, 0,
                          ctx.stream()>>>(ctx.buffer("queries_t").as<const float>(), ctx.buffer("keys").as<const float>(),
                                          ctx.buffer("best").as<float>(), m, n);
    AISP_LAUNCH_CHECK();
  }

  aisp::Tolerance tolerance() const override { return independent_accumulators_tolerance(); }
  std::string technique() const override { return "one accumulator: a 128-long dependent FMA chain per score"; }
};

}  // namespace

AISP_BENCHMARK(BaselineIndependentAccumulators)
