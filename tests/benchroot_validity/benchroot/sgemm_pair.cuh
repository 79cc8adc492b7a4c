// The bench-root cuBLAS pair's shared part: SGEMM 512^3 on the harness's cuBLAS handle, one call.
#pragma once
#include <cublas_v2.h>

#include "aisp/aisp.hpp"

namespace benchroot {

inline constexpr int kGemm = 512;

struct Sgemm : aisp::Benchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kGemm}};
    w.flops = 2.0 * kGemm * kGemm * kGemm;
    w.bytes = 3.0 * kGemm * kGemm * sizeof(float);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("a", aisp::DType::f32, {kGemm, kGemm});
    ctx.input("b", aisp::DType::f32, {kGemm, kGemm});
    ctx.output("c", aisp::DType::f32, {kGemm, kGemm});
    ctx.cublas();
  }
  void run(aisp::Context& ctx) override {
    const float one = 1.f, zero = 0.f;
    AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, kGemm, kGemm, kGemm, &one,
                                  ctx.buffer("b").as<const float>(), kGemm, ctx.buffer("a").as<const float>(), kGemm, &zero,
                                  ctx.buffer("c").as<float>(), kGemm));
  }
};

}  // namespace benchroot
