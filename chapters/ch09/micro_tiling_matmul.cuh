// micro_tiling_matmul: C = A * B for square row-major FP32 matrices (n x n), CUDA cores only (no tensor
// cores, no TF32). Shared by baseline_micro_tiling_matmul.cu (shared-memory tiles, one output per
// thread) and optimized_micro_tiling_matmul.cu (shared-memory tiles + an 8 x 8 register micro-tile per
// thread). Both accumulate every output as fmaf over k = 0 .. n-1 in order, so their outputs are
// identical bit for bit; only the data reuse per load differs.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 2048^3: 17.2 GFLOP per run. At 2048 the optimized kernel's 128 x 128 tiles make 256 blocks, one wave at
// 2 blocks per SM on 132 SMs; the 48 MiB of operands fit in H100's 50 MB L2, so this is a compute/on-chip
// bandwidth story, not a DRAM one.
inline constexpr int64_t kMicroTileN = 2048;

inline aisp::Workload micro_tiling_matmul_workload() {
  const double n = static_cast<double>(kMicroTileN);
  aisp::Workload w;
  w.params = {{"n", kMicroTileN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * n * n * sizeof(float);  // A, B read once, C written once
  w.flops = 2.0 * n * n * n;
  w.items = n * n;
  w.item_unit = "outputs";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class MicroTilingMatmulBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return micro_tiling_matmul_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("a", aisp::DType::f32, {n, n});
    ctx.input("b", aisp::DType::f32, {n, n});
    ctx.output("c", aisp::DType::f32, {n, n});
  }
};

inline void check_micro_tiling_shape(int64_t n) {
  if (n % 128 != 0) throw std::runtime_error("micro_tiling_matmul: n must be a multiple of 128");
}
