// autotuned_tiles: an FP32 GEMM (CUDA cores) whose tile shape is a compile-time choice, on a shape the
// usual default serves badly: C[1024][1024] = A[1024][8192] * B[8192][1024] (17.2 GFLOP; `--axis m/n/k`).
//
//   baseline_autotuned_tiles.cu    the fixed configuration a library tunes for large square GEMMs:
//                                  128 x 128 tiles, 8 x 8 outputs per thread
//   optimized_autotuned_tiles.cu   the same kernel template in five tile shapes; setup() times each on the
//                                  pair's own buffers and keeps the fastest, cached by (GPU, m, n, k)
//
// At 1024 x 1024 the fixed tile makes 64 blocks for 132 SMs: half the GPU idles however good each block
// is. Smaller tiles reuse less data per load but fill the machine; which wins depends on shape and GPU,
// which is why it is measured rather than guessed. All configurations sum each output in the same order
// (sgemm_tiles.cuh): bit-identical outputs, the default fp32 tolerance.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "sgemm_tiles.cuh"

inline int64_t autotune_m() { return aisp::axis("m", 1024); }
inline int64_t autotune_n() { return aisp::axis("n", 1024); }
inline int64_t autotune_k() { return aisp::axis("k", 8192); }

class AutotunedTilesBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t m = autotune_m(), n = autotune_n(), k = autotune_k();
    aisp::Workload w;
    w.params = {{"m", m}, {"n", n}, {"k", k}};
    w.precision = aisp::DType::f32;
    w.bytes = (double(m) * k + double(k) * n + double(m) * n) * sizeof(float);
    w.flops = 2.0 * double(m) * n * k;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % 128 || n % 128 || k % kSgemmBK) throw std::runtime_error("autotuned_tiles: m, n need % 128, k % 8");
    ctx.input("a", aisp::DType::f32, {m, k});
    ctx.input("b", aisp::DType::f32, {k, n});
    ctx.output("c", aisp::DType::f32, {m, n});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  void launch(aisp::Context& ctx, const SgemmConfig& cfg) const {
    cfg.launch(ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(), ctx.buffer("c").as<float>(),
               static_cast<int>(ctx.param("m")), static_cast<int>(ctx.param("n")), static_cast<int>(ctx.param("k")),
               ctx.stream());
    AISP_LAUNCH_CHECK();
  }
};
