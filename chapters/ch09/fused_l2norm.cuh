// fused_l2norm: row-wise L2 normalization, out[r][c] = x[r][c] / sqrt(sum_c x[r][c]^2 + eps), over a
// rows x cols FP32 matrix (the normalization step of embeddings, QK-norm, cosine similarity). Shared by
// baseline_fused_l2norm.cu (three kernels: square, row sum, normalize - what an eager framework runs) and
// optimized_fused_l2norm.cu (one kernel, one block per row). Both sum each row in the same order with
// the same block reduction and without FMA contraction, so their outputs are identical bit for bit.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 8192 rows x 2048 floats = 64 MiB per matrix: the fused kernel moves 128 MiB (2.7x H100's 50 MB L2).
inline constexpr int64_t kL2NormRows = 8192;
inline constexpr int64_t kL2NormCols = 2048;
inline constexpr float kL2NormEps = 1e-12f;
// A row is reduced by one 256-thread block, each thread owning 2 float4 (8 floats) of the row.
inline constexpr int kL2NormThreads = 256;
inline constexpr int kL2NormVecPerThread = static_cast<int>(kL2NormCols / 4 / kL2NormThreads);
static_assert(kL2NormVecPerThread * 4 * kL2NormThreads == kL2NormCols, "a row must split evenly into float4s");

inline aisp::Workload fused_l2norm_workload() {
  const double n = static_cast<double>(kL2NormRows) * kL2NormCols;
  aisp::Workload w;
  w.params = {{"rows", kL2NormRows}, {"cols", kL2NormCols}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * n * sizeof(float);  // x read once, out written once: the fused minimum
  w.flops = 3.0 * n;                  // square + add per element, scale per element (row sqrt/div ignored)
  w.items = static_cast<double>(kL2NormRows);
  w.item_unit = "rows";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class FusedL2normBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return fused_l2norm_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("x", aisp::DType::f32, {rows, cols});
    ctx.output("out", aisp::DType::f32, {rows, cols});
  }
};

inline void check_fused_l2norm_shape(int64_t cols) {
  if (cols != int64_t{kL2NormVecPerThread} * 4 * kL2NormThreads)
    throw std::runtime_error("fused_l2norm: kernels are specialised for the declared row length");
}

// Sum of `v` over the block, in a fixed order (butterfly in each warp, then warp 0 adds the 8 warp sums
// left to right), returned to every thread. Same order in both variants -> same bits.
__device__ __forceinline__ float l2norm_block_sum(float v) {
  __shared__ float warp_sums[kL2NormThreads / 32];
  __shared__ float total;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = __fadd_rn(v, __shfl_xor_sync(0xffffffffu, v, off));
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < kL2NormThreads / 32; ++w) s = __fadd_rn(s, warp_sums[w]);
    total = s;
  }
  __syncthreads();
  return total;
}

// 1 / sqrt(sum of squares + eps), IEEE-rounded sqrt and division (no fast-math approximations).
__device__ __forceinline__ float l2norm_inverse(float sum_sq) { return __fdiv_rn(1.0f, __fsqrt_rn(sum_sq + kL2NormEps)); }

__device__ __forceinline__ float4 scale4(float4 v, float s) {
  return make_float4(__fmul_rn(v.x, s), __fmul_rn(v.y, s), __fmul_rn(v.z, s), __fmul_rn(v.w, s));
}
