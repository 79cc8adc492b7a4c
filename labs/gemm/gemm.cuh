// labs/gemm: ch10's BF16 GEMM progression carried to a problem big enough to sit far right of the ridge
// point, where only the tensor-core issue rate is left to win: C[M][N] = A[M][K] B[N][K]^T, BF16 in, FP32
// accumulation, BF16 out, 8192^3 by default (1.1 TFLOP; `--axis m/n/k`), A and B K-major (ch10's layout).
//   baseline_gemm.cu                        Ampere-style tensor cores: mma.sync + ldmatrix, 4-stage cp.async
//                                           (ch10 gemm_mma_sync.cuh)
//   optimized_gemm_wgmma_persistent.cu      Hopper: TMA + wgmma, producer/consumer warpgroups, setmaxnreg,
//                                           persistent CTAs in grouped order (ch10 gemm_ws_kernel.cuh)
//   optimized_gemm_cluster_multicast.cu     + 2-CTA clusters sharing B through TMA multicast
//   optimized_gemm_cublas.cu                cuBLAS, the reference bar
// The kernels are ch10's, included, not copied; this lab adds the big-problem view and the roofline
// (README.md). Workload, buffers and tolerance are ch10's gemm_tiled contract at this lab's sizes.
#pragma once
#include "../../chapters/ch10/gemm_tiled.cuh"

inline int64_t lab_gemm_m() { return aisp::axis("m", 8192); }
inline int64_t lab_gemm_n() { return aisp::axis("n", 8192); }
inline int64_t lab_gemm_k() { return aisp::axis("k", 8192); }

class LabGemmBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t m = lab_gemm_m(), n = lab_gemm_n(), k = lab_gemm_k();
    aisp::Workload w;
    w.params = {{"m", m}, {"n", n}, {"k", k}};
    w.precision = aisp::DType::bf16;
    w.bytes = (double(m) * k + double(n) * k + double(m) * n) * 2.0;  // A, B read once, C written once
    w.flops = 2.0 * double(m) * double(n) * double(k);
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("a", aisp::DType::bf16, {m, k});
    ctx.input("b", aisp::DType::bf16, {n, k});
    ctx.output("c", aisp::DType::bf16, {m, n});
    prepare(ctx);
  }
  // ch10's contract: one BF16 ulp for sums in another order, atol 1e-2 (~1/3000 of rms |c| = sqrt(k/9) ~ 30
  // at k = 8192) for near-zero outputs.
  aisp::Tolerance tolerance() const override { return gemm_tiled_tolerance(); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  virtual void prepare(aisp::Context&) {}
  // Each kernel needs whole tiles; say so instead of computing garbage at the edges.
  static void require_tiles(const char* who, aisp::Context& ctx, int64_t tm, int64_t tn, int64_t tk) {
    if (ctx.param("m") % tm || ctx.param("n") % tn || ctx.param("k") % tk)
      throw std::runtime_error(std::string(who) + ": needs m % " + std::to_string(tm) + ", n % " +
                               std::to_string(tn) + ", k % " + std::to_string(tk) + " == 0");
  }
};
