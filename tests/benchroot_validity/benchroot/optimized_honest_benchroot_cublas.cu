// Honest control (bench-root): the same single cuBLAS SGEMM as its baseline (an A/A pair), compiled on
// demand with cuBLAS linked as in-tree plugins link it: a user's cuBLAS plugin must pass every check.
// (Splitting the GEMM into two calls lets cuBLAS pick another kernel whose fp32 sums differ by more than
// the default tolerance: that would need the pair to declare a justified tolerance.)
#include <cublas_v2.h>

#include "aisp/aisp.hpp"

namespace {
constexpr int kN = 512;
}

struct SgemmAgain : aisp::Benchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kN}};
    w.flops = 2.0 * kN * kN * kN;
    w.bytes = 3.0 * kN * kN * sizeof(float);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("a", aisp::DType::f32, {kN, kN});
    ctx.input("b", aisp::DType::f32, {kN, kN});
    ctx.output("c", aisp::DType::f32, {kN, kN});
    ctx.cublas();
  }
  void run(aisp::Context& ctx) override {
    const float one = 1.f, zero = 0.f;
    AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &one,
                                  ctx.buffer("b").as<const float>(), kN, ctx.buffer("a").as<const float>(), kN, &zero,
                                  ctx.buffer("c").as<float>(), kN));
  }
};

AISP_BENCHMARK(SgemmAgain)
