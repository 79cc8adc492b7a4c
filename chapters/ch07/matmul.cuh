// matmul: C = A * B for square row-major FP32 matrices (n x n), the kernel every GPU course starts with.
// Shared by baseline_matmul.cu (straight from global memory) and optimized_matmul.cu (shared-memory
// tiles). Both give each thread one output and sum its dot product in the same order, k = 0 .. n-1, with
// one fmaf per term, so the two outputs are identical bit for bit; only the memory traffic differs.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 1024^3: 2.15 GFLOP per run. Small enough that the naive kernel stays around a millisecond, large
// enough (1024 output tiles of 32 x 32, ~4 waves of 2 blocks per SM on 132 SMs) to fill the GPU.
inline constexpr int64_t kMatmulN = 1024;
// Tile edge of the optimized kernel and the x-extent of both kernels' blocks: 32 lanes = one 128 B row.
inline constexpr int kMatmulTile = 32;

inline aisp::Workload matmul_workload() {
  const double n = static_cast<double>(kMatmulN);
  aisp::Workload w;
  w.params = {{"n", kMatmulN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * n * n * sizeof(float);  // A, B read once, C written once (12 MiB: fits in L2)
  w.flops = 2.0 * n * n * n;
  w.items = n * n;
  w.item_unit = "outputs";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class MatmulBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return matmul_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("a", aisp::DType::f32, {n, n});
    ctx.input("b", aisp::DType::f32, {n, n});
    ctx.output("c", aisp::DType::f32, {n, n});
  }
};

inline void check_matmul_shape(int64_t n) {
  if (n % kMatmulTile != 0) throw std::runtime_error("matmul: n must be a multiple of the 32-wide tile");
}
