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

// ch10's GemmTiledBase at this lab's sizes, Hopper only: its buffers, prepare(), require_multiple() and its
// tolerance (one BF16 ulp for sums in another order; atol 1e-2, ~1/3000 of rms |c| = sqrt(k/9) ~ 30 at
// k = 8192, for near-zero outputs).
class LabGemmBase : public GemmTiledBase {
 public:
  aisp::Workload workload() const override { return bf16_gemm_workload(lab_gemm_m(), lab_gemm_n(), lab_gemm_k()); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
};
