// gemm_tiled: the ch10 GEMM progression. C[M][N] = A[M][K] * B[N][K]^T in BF16 with FP32 accumulation,
// 4096^3 by default (137 GFLOP; `--axis m=...`, `n`, `k` change it). A and B are both K-major (B is an
// nn.Linear weight, output-major), C is row-major BF16. Every variant is one step of the same story:
//   baseline_gemm_tiled.cu                     CUDA cores: 128x128 shared-memory tiles, 8x8 outputs per thread
//   optimized_gemm_tiled_mma_sync.cu           tensor cores, warp-level mma.sync + ldmatrix, 4-stage cp.async ring
//   optimized_gemm_tiled_wgmma_tma.cu          warpgroup wgmma fed by TMA, 4-stage mbarrier ring, one role for all
//   optimized_gemm_tiled_warp_specialized.cu   + a producer warpgroup (TMA) and two consumer warpgroups, setmaxnreg
//   optimized_gemm_tiled_persistent.cu         + persistent CTAs (one per SM) walking tiles in grouped order
//   optimized_gemm_tiled_cluster_multicast.cu  + 2-CTA clusters sharing the B tile through TMA multicast
//   optimized_gemm_tiled_cublas.cu             cuBLAS (cublasGemmEx) for reference: the bar the hand kernels aim at
// The shared base class below fixes workload, buffers and tolerance for all of them.
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

inline int64_t gemm_tiled_m() { return aisp::axis("m", 4096); }
inline int64_t gemm_tiled_n() { return aisp::axis("n", 4096); }
inline int64_t gemm_tiled_k() { return aisp::axis("k", 4096); }

// The contract every BF16 GEMM pair of ch10 and labs/gemm shares (gemm_tiled, smem_swizzle,
// double_buffered_pipeline, labs/gemm): C[M][N] = A[M][K] B[N][K]^T, its workload and its buffers.
inline aisp::Workload bf16_gemm_workload(int64_t m, int64_t n, int64_t k) {
  aisp::Workload w;
  w.params = {{"m", m}, {"n", n}, {"k", k}};
  w.precision = aisp::DType::bf16;
  w.bytes = (double(m) * k + double(n) * k + double(m) * n) * 2.0;  // A, B read once, C written once
  w.flops = 2.0 * double(m) * double(n) * double(k);
  return w;
}

// a [m][k] and b [n][k] (K-major), c [m][n].
inline void declare_bf16_gemm_buffers(aisp::Context& ctx, int64_t m, int64_t n, int64_t k) {
  ctx.input("a", aisp::DType::bf16, {m, k});
  ctx.input("b", aisp::DType::bf16, {n, k});
  ctx.output("c", aisp::DType::bf16, {m, n});
}

inline aisp::Workload gemm_tiled_workload() { return bf16_gemm_workload(gemm_tiled_m(), gemm_tiled_n(), gemm_tiled_k()); }

// Both variants accumulate in FP32 and round once to BF16, but in different orders (k in sequence on the
// CUDA cores; the tensor cores' blocked order; cuBLAS's own), so the FP32 sums differ in the last few bits
// and a sum near a BF16 rounding boundary can land on the neighbouring BF16 value: one BF16 ulp, at most
// 2^-7 of the value (8 significant bits). rtol 2^-7 (+1%) admits exactly that. atol is for outputs near
// zero, where only the FP32 order difference remains (~sqrt(k) x 2^-24 x |partial sums|, ~1e-5 at k = 4096
// with |a|, |b| <= 1): 1e-2 is ~1000x that and still ~1/2000 of the outputs' rms (sqrt(k / 9) ~ 21), so a
// wrong or missing term (|a b| up to 1) cannot hide under it.
inline aisp::Tolerance gemm_tiled_tolerance() {
  return aisp::Tolerance::loosened(
      std::ldexp(1.0, -7) * 1.01, 1e-2,
      "BF16 output: FP32 sums in a different order may round to the adjacent BF16 value (1 ulp <= 2^-7 rel); "
      "atol 1e-2 (~1/2000 of rms |c| at k = 4096) for near-zero outputs");
}

class GemmTiledBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return gemm_tiled_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    declare_bf16_gemm_buffers(ctx, m, n, k);
    prepare(ctx);
  }
  aisp::Tolerance tolerance() const override { return gemm_tiled_tolerance(); }

 protected:
  // Per-variant one-time work after the buffers exist (tensor maps, function attributes), never from values.
  virtual void prepare(aisp::Context&) {}
  // Each kernel's tiling needs whole tiles; say so instead of computing garbage at the edges.
  static void require_multiple(const char* who, int64_t m, int64_t n, int64_t k, int64_t tm, int64_t tn, int64_t tk) {
    if (m % tm || n % tn || k % tk)
      throw std::runtime_error(std::string(who) + ": needs m % " + std::to_string(tm) + " == 0, n % " +
                               std::to_string(tn) + " == 0, k % " + std::to_string(tk) + " == 0");
  }
};
