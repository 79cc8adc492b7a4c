// smem_swizzle: one tensor-core GEMM (gemm_mma_sync.cuh: mma.sync m16n8k16 + ldmatrix, 128 x 128 x 32 CTA
// tiles, 4-stage cp.async ring), C[M][N] = A[M][K] * B[N][K]^T in BF16 with FP32 accumulation, 4096^3 by
// default (`--axis m/n/k`). The variants differ only in where a 16-byte chunk of a K-tile row sits in
// shared memory (gemm_mma_sync.cuh's Smem switch):
//   baseline_smem_swizzle.cu          rows packed at 64 B: each ldmatrix 8x8 matrix is a 4-way bank conflict
//   optimized_smem_swizzle.cu         the same packing with chunk c of row r at c ^ ((r / 2) % 4): conflict-free
//   optimized_smem_swizzle_padded.cu  rows padded to 80 B instead: conflict-free, 25% more shared memory
// The MMA code and its summation order are the same function, so outputs are identical bit for bit and the
// BF16 default tolerance applies.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "gemm_mma_sync.cuh"
#include "gemm_tiled.cuh"

inline int64_t smem_swizzle_m() { return aisp::axis("m", 4096); }
inline int64_t smem_swizzle_n() { return aisp::axis("n", 4096); }
inline int64_t smem_swizzle_k() { return aisp::axis("k", 4096); }

class SmemSwizzleBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return bf16_gemm_workload(smem_swizzle_m(), smem_swizzle_n(), smem_swizzle_k()); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (m % mma_gemm::kBM || n % mma_gemm::kBN || k % mma_gemm::kBK)
      throw std::runtime_error("smem_swizzle: needs m, n % 128 == 0 and k % 32 == 0");
    declare_bf16_gemm_buffers(ctx, m, n, k);
    prepare();
  }
  // Same kernel code and summation order in every variant: bit-identical outputs, the BF16 default holds.
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 80}; }

 protected:
  virtual void prepare() = 0;
};

// A variant is its layout: run() launches the 4-stage cp.async kernel with that shared-memory layout.
template <mma_gemm::Smem kSmem>
class SmemSwizzleVariant : public SmemSwizzleBase {
 public:
  using Gemm = mma_gemm::MmaGemm</*stages=*/4, /*async=*/true, kSmem>;
  void run(aisp::Context& ctx) override {
    Gemm::launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ctx.buffer("c").data, ctx.param("m"),
                 ctx.param("n"), ctx.param("k"));
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare() override { Gemm::prepare(); }
};
