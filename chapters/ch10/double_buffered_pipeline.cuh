// double_buffered_pipeline: one tensor-core GEMM (gemm_mma_sync.cuh: mma.sync m16n8k16 + ldmatrix,
// 128 x 128 x 32 CTA tiles), C[M][N] = A[M][K] * B[N][K]^T in BF16 with FP32 accumulation, 4096^3 by
// default (`--axis m/n/k`). The two variants differ only in how a K-tile gets into shared memory:
//   baseline_double_buffered_pipeline.cu   one slot, synchronous: load (global -> registers -> shared),
//                                          barrier, compute, barrier: the SM's warps wait out every load
//   optimized_double_buffered_pipeline.cu  two slots filled with cp.async: K-tile kt+1 is in flight while
//                                          K-tile kt is computed
// The MMA code and its summation order are the same function, so the outputs are identical bit for bit and
// the BF16 default tolerance applies.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "gemm_mma_sync.cuh"
#include "gemm_tiled.cuh"

inline int64_t double_buffered_pipeline_m() { return aisp::axis("m", 4096); }
inline int64_t double_buffered_pipeline_n() { return aisp::axis("n", 4096); }
inline int64_t double_buffered_pipeline_k() { return aisp::axis("k", 4096); }

class DoubleBufferedPipelineBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    return bf16_gemm_workload(double_buffered_pipeline_m(), double_buffered_pipeline_n(), double_buffered_pipeline_k());
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % mma_gemm::kBM || n % mma_gemm::kBN || k % mma_gemm::kBK)
      throw std::runtime_error("double_buffered_pipeline: needs m, n % 128 == 0 and k % 32 == 0");
    declare_bf16_gemm_buffers(ctx, m, n, k);
    prepare();
  }
  // Same kernel code and summation order in both variants: bit-identical outputs, the BF16 default holds.
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 80}; }

 protected:
  virtual void prepare() = 0;  // raise the kernel's dynamic shared-memory limit (shape-independent)
};
