// Honest control (bench-root): the same SGEMM as two half-height cuBLAS calls (rows 0-255, 256-511),
// compiled on demand with cuBLAS linked as in-tree plugins link it. Must pass every check.
#include <cublas_v2.h>

#include "aisp/aisp.hpp"

namespace {
constexpr int kN = 512;
}

struct SgemmHalves : aisp::Benchmark {
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
    const float* a = ctx.buffer("a").as<const float>();
    float* c = ctx.buffer("c").as<float>();
    // Row-major C = A B as column-major C^T = B^T A^T; rows of C are columns of C^T.
    for (int half = 0; half < 2; ++half)
      AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, kN, kN / 2, kN, &one,
                                    ctx.buffer("b").as<const float>(), kN, a + half * (kN / 2) * kN, kN, &zero,
                                    c + half * (kN / 2) * kN, kN));
  }
};

AISP_BENCHMARK(SgemmHalves)
